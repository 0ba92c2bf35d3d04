/**
 * The `i18n` overlays' schema (lib/data/translations.ts has the table and
 * reads them): what `tourism_data_schema.ts` builds the data set's schema
 * with. Apart from the table, so what only localizes never loads zod.
 *
 * @module
 */
import { z } from "zod";
import {
  BASE_LANG,
  isArrayOfFields,
  isObject,
  PRIMARY_LANGUAGE_TAG,
  type TranslatableFields,
  type Translations,
} from "./translations.ts";

/** Language tags of overlays: BCP 47 primary language subtags, never the base. */
const languageTag = z.string()
  .regex(
    PRIMARY_LANGUAGE_TAG,
    'must be a BCP 47 primary language tag such as "en" or "fr"',
  )
  .refine(
    (lang) => lang !== BASE_LANG,
    "Spanish is the data set's own text, not an overlay",
  );

/**
 * Adds the optional `i18n` overlays to an object schema: by language, a strict
 * object with only the `fields` of the table, each with the same schema as the
 * Spanish field. A field the base schema lacks is a bug in the table and
 * throws at start. An overlay field without a Spanish value, or an overlay
 * array of objects longer than the Spanish one, is refused with its path.
 */
export function withTranslations<
  Shape extends z.ZodRawShape,
  F extends TranslatableFields,
>(
  schema: z.ZodObject<Shape, z.core.$strict>,
  fields: F,
): z.ZodObject<
  Shape & { i18n: z.ZodOptional<z.ZodType<Translations<F>>> },
  z.core.$strict
> {
  const overlays = z.record(languageTag, buildOverlaySchema(schema, fields));
  return schema.extend({ i18n: overlays.optional() }).superRefine(
    (value, ctx) => {
      const i18n = (value as { i18n?: Record<string, unknown> }).i18n ?? {};
      for (const [lang, overlay] of Object.entries(i18n)) {
        checkOverlay(value, overlay, fields, ["i18n", lang], ctx);
      }
    },
  ) as never; // the overlay schema is built at run time; its type is `Translations<F>`
}

function buildOverlaySchema(
  base: z.ZodObject,
  fields: TranslatableFields,
): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [field, kind] of Object.entries(fields)) {
    const spanish = unwrapOptional(base.shape[field]);
    if (isArrayOfFields(kind) && spanish instanceof z.ZodArray) {
      const element = spanish.element;
      if (!(element instanceof z.ZodObject)) throw tableError(field);
      shape[field] = z.array(buildOverlaySchema(element, kind[0])).optional();
    } else if (typeof kind === "object" && spanish instanceof z.ZodObject) {
      shape[field] = buildOverlaySchema(spanish, kind as TranslatableFields)
        .optional();
    } else if (kind === "list" && spanish instanceof z.ZodArray) {
      shape[field] = spanish.optional();
    } else if (typeof kind === "string" && spanish instanceof z.ZodString) {
      shape[field] = spanish.optional();
    } else {
      throw tableError(field);
    }
  }
  const allowed = Object.keys(fields).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `not a translatable field (translatable here: ${allowed})`
        : undefined,
  });
}

/** Refuses overlay fields that have no Spanish text to translate. */
function checkOverlay(
  base: unknown,
  overlay: unknown,
  fields: TranslatableFields,
  path: (string | number)[],
  ctx: z.RefinementCtx,
): void {
  if (!isObject(base) || !isObject(overlay)) return;
  for (const [field, kind] of Object.entries(fields)) {
    const value = base[field];
    const translated = overlay[field];
    if (translated === undefined) continue;
    const at = [...path, field];
    if (value === undefined) {
      ctx.addIssue({
        code: "custom",
        path: at,
        message: "translates a field that has no Spanish text",
      });
    } else if (isArrayOfFields(kind) && Array.isArray(translated)) {
      const elements = value as unknown[];
      translated.forEach((element, i) => {
        if (i >= elements.length) {
          ctx.addIssue({
            code: "custom",
            path: [...at, i],
            message:
              `has no Spanish element (the Spanish list has ${elements.length})`,
          });
        } else {
          checkOverlay(elements[i], element, kind[0], [...at, i], ctx);
        }
      });
    } else if (typeof kind === "object") {
      checkOverlay(value, translated, kind as TranslatableFields, at, ctx);
    }
  }
}

function unwrapOptional(schema: unknown): unknown {
  return schema instanceof z.ZodOptional ? schema.unwrap() : schema;
}

function tableError(field: string): Error {
  return new Error(
    `TRANSLATABLE names "${field}", which the schema does not have in that shape`,
  );
}
