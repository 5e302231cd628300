// The checks of the string formats the generated validators use, so that a
// bundle keeps only those: ajv-formats' `fullFormats` is one CommonJS table of
// every format. Each is ajv-formats 3.0.1's own (regular expressions copied);
// generate.mjs refuses a format not listed here and compares each with
// ajv-formats before writing. `format_`/`FORMAT_` names cannot clash with
// ajv's generated identifiers.

const FORMAT_URI_NOT_FRAGMENT = /\/|:/;
const FORMAT_URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
function format_uri(str) {
  return FORMAT_URI_NOT_FRAGMENT.test(str) && FORMAT_URI.test(str);
}

const FORMAT_BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm;
function format_byte(str) {
  FORMAT_BYTE.lastIndex = 0;
  return FORMAT_BYTE.test(str);
}

/**
 * Each supported format: the regular expressions its check reads (emitted as
 * `const NAME = /.../flags;`) and the check itself (emitted from its source).
 */
export const FORMAT_CHECKS = {
  uri: { regexps: { FORMAT_URI_NOT_FRAGMENT, FORMAT_URI }, check: format_uri },
  byte: { regexps: { FORMAT_BYTE }, check: format_byte },
};

/** Strings each check is compared with ajv-formats on, before generating. */
export const FORMAT_SAMPLES = [
  "",
  " ",
  "a",
  "abc",
  "https://example.com",
  "https://example.com/a b",
  "HTTPS://EXAMPLE.COM/PATH?Q=1#F",
  "file:///tmp/x.txt",
  "urn:isbn:0451450523",
  "mailto:someone@example.com",
  "data:text/plain;base64,SGVsbG8=",
  "x://{a}",
  "//example.com/relative",
  "/absolute/path",
  "relative/path",
  "example.com",
  "http://[::1]:8080/",
  "http://[fe80::1%25eth0]/",
  "http://300.300.300.300/",
  "http://例え.テスト/",
  "http://a/%zz",
  "http://a/%41",
  "ftp://user:pass@host:21/file",
  "c:\\windows",
  "AAAA",
  "AAA=",
  "AA==",
  "A===",
  "AAAAA",
  "SGVsbG8sIHdvcmxk",
  "SGVsbG8sIHdvcmxkIQ==",
  "iVBORw0KGgo=",
  "aGk=\naGk=",
  "aGk=\n",
  "not base64!",
  "+/+/",
  "-_-_",
];
