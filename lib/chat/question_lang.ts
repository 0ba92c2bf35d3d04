/**
 * The language a chat question is written in, among the portal's two
 * (Spanish and English), so the assistant answers in it whatever page the
 * widget sits on.
 *
 * Counted by words only one language uses (articles, prepositions,
 * question words, common verbs), not by a trigram detector: questions are
 * short and full of Spanish place names in both languages, and franc-min
 * (tried) reads "how far is Guadalajara" and "What time does José Cuervo
 * open?" as Spanish. Function words are not fooled by names.
 */
import { isLang, type Lang } from "@/lib/i18n/catalogue.ts";

const SPANISH = new Set(
  ("el la los las un una unos unas del al de en y o que qué quien quién donde dónde cuando cuándo como cómo cual cuál cuales cuáles cuanto cuánto cuanta cuánta cuantos cuántos cuantas cuántas porque por para con sin sobre hay es son está están esta este estos estas eso esto hola gracias puedo puede pueden podemos quiero queremos quisiera tiene tienen tengo abre abren cierra cierran cuesta cuestan hace llego llegar ir ver comer dormir horario precio precios lejos cerca también muy más menos mi mis tu su sus nos les algo alguien algún alguna ningún mañana hoy noche tarde día días semana sábado domingo lunes martes miércoles jueves viernes niños recomiendas recomiendan necesito buscar busco dan hasta desde entre")
    .split(" "),
);
const ENGLISH = new Set(
  ("the an of in on at to from for with and or but is are was were be been what what's where where's when which who whom whose why how how's much many there it it's this that these those i i'm we you your my our do does did can could would should will shall have has had any some open opens close closes far near price prices cost costs hours hello hi thanks thank please want need get go see eat sleep visit best good today tomorrow tonight night day days week saturday sunday monday tuesday wednesday thursday friday kids children recommend about around also very more than")
    .split(" "),
);

/** How many more words of one language than the other make it sure. */
const MIN_WORDS = 2;

/**
 * The language `text` is clearly written in (`es` or `en`), or null when
 * it is too short or mixed to say: then the page's language decides.
 * Clearly: at least two words only that language uses, and more than twice
 * as many as the other's ("¿" and "¡" count as Spanish words).
 */
export function detectQuestionLang(text: string): Lang | null {
  const words = text.normalize("NFKC").toLowerCase()
    .split(/[^\p{L}']+/u).filter(Boolean);
  let es = (text.match(/[¿¡]/g) ?? []).length;
  let en = 0;
  for (const word of words) {
    if (SPANISH.has(word)) es++;
    if (ENGLISH.has(word)) en++;
  }
  if (es >= MIN_WORDS && es > 2 * en) return "es";
  if (en >= MIN_WORDS && en > 2 * es) return "en";
  return null;
}

/**
 * The language the assistant replies in: the question's when it is clear,
 * else that of the visitor's last clear question in `history`, else the
 * page's (`pageLang`).
 */
export function getReplyLang(
  { message, history, pageLang }: {
    message: string;
    history: readonly { role: string; content: string }[];
    pageLang: Lang;
  },
): Lang {
  const asked = [
    message,
    ...history.filter((m) => m.role === "user")
      .map((m) => m.content).reverse(),
  ];
  for (const question of asked) {
    const lang = detectQuestionLang(question);
    if (lang && isLang(lang)) return lang;
  }
  return pageLang;
}
