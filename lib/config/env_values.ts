/**
 * Reading one environment variable's text into a value, or an
 * {@linkcode EnvValueError} in the operator's English that never repeats the
 * value (it may be a secret). Small readers instead of zod: the
 * configuration is read at every start, before the first answer, and zod's
 * import alone costs a cold start 15-30 ms (docs/PERFORMANCE.md).
 */

/** What is wrong with a variable's value (config.ts adds the name). */
export class EnvValueError extends Error {
  override name = "EnvValueError";
}

/** Reads a variable's text; `undefined` when it is not set (or empty). */
export type EnvReader<T> = (value: string | undefined) => T;

/** Throws what is wrong with a value. */
export function fail(message: string): never {
  throw new EnvValueError(message);
}

/** `read`, or `undefined` when the variable is not set. */
export function optional<T>(
  read: (value: string) => T,
): EnvReader<T | undefined> {
  return (value) => value === undefined ? undefined : read(value);
}

/** `read` of the value, or of `fallback` when the variable is not set. */
export function orDefault<T>(
  read: (value: string) => T,
  fallback: string,
): EnvReader<T> {
  return (value) => read(value ?? fallback);
}

/** Text, trimmed with `trim`; at least `minLength` characters (1: not empty). */
export function text(
  { trim = false, minLength = 1 }: { trim?: boolean; minLength?: number } = {},
): (value: string) => string {
  return (value) => {
    const result = trim ? value.trim() : value;
    if (result.length < minLength) {
      fail(
        minLength <= 1
          ? "must not be empty"
          : `must be at least ${minLength} characters`,
      );
    }
    return result;
  };
}

/** Text that matches `pattern`; `message` says what it must be. */
export function matching(
  pattern: RegExp,
  message: string,
): (value: string) => string {
  return (value) => pattern.test(value) ? value : fail(message);
}

/** A whole number from `min` to `max`. */
export function integer(
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): (value: string) => number {
  return (value) => {
    const number = value.trim() === "" ? NaN : Number(value);
    if (Number.isNaN(number)) fail("must be a number");
    if (!Number.isSafeInteger(number)) fail("must be a whole number");
    if (number < min) fail(`must be at least ${min}`);
    if (number > max) fail(`must be at most ${max}`);
    return number;
  };
}

/** One of `values`, as written. */
export function oneOf<const V extends string>(
  ...values: V[]
): (value: string) => V {
  return (value) =>
    (values as string[]).includes(value)
      ? value as V
      : fail(`must be one of ${values.join(", ")}`);
}

/** An http or https URL, kept as written. */
export function httpUrl(value: string): string {
  const url = URL.parse(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    fail("must be an http or https URL, like https://example.org");
  }
  return value;
}

/** On or off: 1, true, yes and on (any case) are on; anything else is off. */
export function flag(value: string): boolean {
  return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}
