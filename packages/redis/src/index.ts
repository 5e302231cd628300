/**
 * `@x/redis`: the parts several `@x/server` instances share through one
 * Redis: a task store ({@link RedisTaskStore}, the `store` of the tasks plug-in, `tasks({ store })`) and
 * an event bus on pub/sub ({@link RedisEventBus}, the `eventBus` option).
 * A server without Redis needs none of this package.
 *
 * @module @x/redis
 */
export { RESUBSCRIBE_MAX_DELAY_MS, RedisEventBus, type RedisEventBusOptions } from "./bus.js";
export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PREFIX,
  OWN_CONNECTION_OPTIONS,
  type RedisConnectionOptions,
  RedisUnavailableError,
} from "./connection.js";
export { DEFAULT_MAX_REDIS_TASKS, RedisTaskStore, type RedisTaskStoreOptions } from "./store.js";
