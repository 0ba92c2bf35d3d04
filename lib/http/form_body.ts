import type { Context } from "hono";

/**
 * The text fields of a form a page posted (`application/x-www-form-urlencoded`
 * or `multipart/form-data`; files are dropped). A body that is no readable
 * form (a multipart type without its boundary, broken parts, another type)
 * is a form without fields: the route's own check of what it needs answers
 * it, as it answers an empty form (a 4xx page), never a 500.
 */
export async function readForm(
  c: Context,
  { repeated = false }: {
    /**
     * A name sent more than once (a list of checkboxes) gives its values
     * one per line, in the form's order; otherwise the last one wins.
     */
    repeated?: boolean;
  } = {},
): Promise<Record<string, string>> {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody({ all: repeated });
  } catch (error) {
    // What the platform's FormData parser throws for a body it cannot read.
    if (error instanceof TypeError) return {};
    throw error;
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const texts = (Array.isArray(value) ? value : [value]).filter((
      v,
    ): v is string => typeof v === "string");
    if (texts.length > 0) fields[name] = texts.join("\n");
  }
  return fields;
}
