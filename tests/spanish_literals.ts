/**
 * "This source file says Spanish", as functions: the detector that tells a
 * literal reading as Spanish from code, English and identifiers, and the
 * reader that finds such literals in a file with Deno's own parser (the
 * lint plugin API: string literals, template parts and JSX text, never
 * comments or regular expressions). Used by the tests that keep the words
 * in the catalogues (`tests/operations/lib_words_test.ts`,
 * `tests/operations/console_words_test.ts`).
 */

/** Short Spanish words that English text does not use as words. */
const SPANISH_WORD =
  /(?:^|[^\p{L}])(?:de|del|la|las|el|los|una|que|con|para|por|sin|se|su|sus|tu|tus|al|y|ya)(?=$|[^\p{L}])/iu;
/** Letters of Spanish that English does not write. */
const SPANISH_LETTER = /[áéíóúñ¿¡]/iu;

/** Whether a literal reads as Spanish: an accent or `¿`, or two words one of which is Spanish. */
export function isSpanishText(text: string): boolean {
  // A URL or a template's `{placeholder}` is not prose: `{z}/{x}/{y}`.
  text = text.replace(/\b[a-z][a-z+.-]*:\/\/\S+/giu, " ")
    .replace(/\{[^{}\s]*\}/gu, " ");
  const words = text.match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return false;
  return SPANISH_LETTER.test(text) ||
    (words.length >= 2 && SPANISH_WORD.test(text));
}

/** The Spanish literals of one source file (string literals, template parts, JSX text). */
export function findSpanishLiterals(
  fileName: string,
  source: string,
): string[] {
  const found: string[] = [];
  const keep = (text: string) => {
    if (isSpanishText(text)) found.push(text.trim());
  };
  const plugin: Deno.lint.Plugin = {
    name: "spanish-words",
    rules: {
      "spanish-literal": {
        create() {
          return {
            Literal(node) {
              if (typeof node.value === "string") keep(node.value);
            },
            TemplateElement(node) {
              keep(node.raw);
            },
            JSXText(node) {
              keep(node.value);
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin, fileName, source);
  return found;
}
