/**
 * The check of one property of a form elicitation's `requestedSchema`
 * (spec 2026-07-28, client/elicitation "Requested Schema"; schema:
 * `PrimitiveSchemaDefinition` and its members `StringSchema`,
 * `NumberSchema`, `BooleanSchema` and the enum schemas). A property is
 * valid when one of them accepts it, as the schema's `anyOf` says; the
 * members it does not name are kept as they are.
 */
import { fail, optionalString } from "./members.js";
import { isPlainObject } from "./util.js";

type Property = Record<string, unknown>;

const isString = (v: unknown) => typeof v === "string";
const isStrings = (v: unknown) => Array.isArray(v) && v.every(isString);
const isInteger = (v: unknown) => Number.isSafeInteger(v);
const isNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);
/** An absent member, or one that passes `test`. */
const optional = (property: Property, key: string, test: (v: unknown) => boolean) => property[key] === undefined || test(property[key]);
/** `{ const, title }` options of the titled enums. */
const isTitledOptions = (v: unknown) => Array.isArray(v) && v.every((o) => isPlainObject(o) && isString(o.const) && isString(o.title));

const STRING_FORMATS = new Set(["date", "date-time", "email", "uri"]);

/** The variants of a property of `type: "string"`: plain, untitled enum, titled single-select, legacy titled enum. */
const STRING_VARIANTS: readonly ((p: Property) => boolean)[] = [
  (p) =>
    optional(p, "minLength", isInteger) &&
    optional(p, "maxLength", isInteger) &&
    optional(p, "format", (v) => isString(v) && STRING_FORMATS.has(v as string)) &&
    optional(p, "default", isString),
  (p) => isStrings(p.enum) && optional(p, "default", isString) && optional(p, "enumNames", isStrings),
  (p) => isTitledOptions(p.oneOf) && optional(p, "default", isString),
];

/** The multi-select enums (`type: "array"`): `items` an untitled or titled enum, item counts integers, `default` strings. */
function arrayVariant(p: Property): boolean {
  const items = p.items;
  const itemsOk = isPlainObject(items) && ((items.type === "string" && isStrings(items.enum)) || isTitledOptions(items.anyOf));
  return itemsOk && optional(p, "minItems", isInteger) && optional(p, "maxItems", isInteger) && optional(p, "default", isStrings);
}

/**
 * Checks one `requestedSchema` property whose `type` is a primitive one.
 * @throws TypeError naming `where` when no primitive schema of that type accepts it.
 */
export function checkPrimitiveSchema(property: Property, where: string): void {
  optionalString(property, "title", where);
  optionalString(property, "description", where);
  let ok: boolean;
  switch (property.type) {
    case "string":
      ok = STRING_VARIANTS.some((variant) => variant(property));
      break;
    case "number":
    case "integer":
      ok = optional(property, "minimum", isNumber) && optional(property, "maximum", isNumber) && optional(property, "default", isNumber);
      break;
    case "boolean":
      ok = optional(property, "default", (v) => typeof v === "boolean");
      break;
    default:
      ok = arrayVariant(property);
  }
  if (!ok) {
    fail(
      where,
      `is no ${String(property.type)} schema the spec allows (its members: minLength, maxLength, format, minimum, maximum integers or numbers; enum strings; oneOf/anyOf of { const, title }; default of the property's type)`,
      property,
    );
  }
}
