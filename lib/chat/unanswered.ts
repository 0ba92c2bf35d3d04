/**
 * Questions the portal's data could not answer. The system prompt asks the
 * model to start such a reply with {@linkcode NO_DATA_MARKER}; the service
 * takes the marker out of the reply (whole, or streamed in pieces: it never
 * reaches the visitor) and records the question, masked and cut, for the
 * tourism office (lib/db/unanswered_questions.ts).
 */
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/catalogue.ts";
import { maskPersonalData } from "./mask.ts";
import { NO_DATA_MARKER } from "./no_data_marker.ts";
import {
  MAX_GROUP_KEY_LENGTH,
  type QuestionGroup,
  recordUnansweredQuestion,
} from "@/lib/db/unanswered_questions.ts";
import { recordChatNoData } from "@/lib/db/stats.ts";

export { NO_DATA_MARKER };

/** The most characters of a question kept (and of its group's key). */
export const MAX_QUESTION_LENGTH = MAX_GROUP_KEY_LENGTH;

/**
 * The reply when the model wrote nothing but the marker, in `lang`. The
 * marker itself is the same in every language (the prompt's rule, in
 * `assistant.json`, names it): a token for the service, never shown.
 */
export function getNoDataFallback(lang: Lang = DEFAULT_LANG): string {
  return t(lang, "assistant.noData.fallback");
}

/** A reply without the marker, and whether it had one; the fallback in `lang`. */
export function stripNoDataMarker(
  reply: string,
  lang: Lang = DEFAULT_LANG,
): { text: string; unanswered: boolean } {
  if (!reply.includes(NO_DATA_MARKER)) {
    return { text: reply, unanswered: false };
  }
  const text = reply.replaceAll(NO_DATA_MARKER, "").replace(/^\s+/, "");
  return { text: text || getNoDataFallback(lang), unanswered: true };
}

/**
 * The model's deltas without the marker, wherever it falls and however it
 * is split across deltas: text that could be the start of a marker is held
 * back until the next delta shows it is not (or the stream ends). Leading
 * whitespace after a marker at the start is dropped. `onMarker` is called
 * once, when the first marker is seen; the stream ends only after what it
 * returns settles. A reply that was only the marker becomes the fallback in
 * `lang`.
 */
export async function* stripNoDataMarkerFromStream(
  deltas: AsyncIterable<string>,
  onMarker: () => Promise<unknown> | void,
  lang: Lang = DEFAULT_LANG,
): AsyncGenerator<string, void, undefined> {
  let pending = "";
  let noted: Promise<unknown> | void | undefined;
  let started = false;
  for await (const delta of deltas) {
    pending += delta;
    let index;
    while ((index = pending.indexOf(NO_DATA_MARKER)) !== -1) {
      noted ??= onMarker() ?? Promise.resolve();
      pending = pending.slice(0, index) +
        pending.slice(index + NO_DATA_MARKER.length);
    }
    // Keep the longest tail that could still grow into a marker.
    let keep = 0;
    for (
      let n = Math.min(NO_DATA_MARKER.length - 1, pending.length);
      n > 0;
      n--
    ) {
      if (NO_DATA_MARKER.startsWith(pending.slice(-n))) {
        keep = n;
        break;
      }
    }
    let out = pending.slice(0, pending.length - keep);
    pending = pending.slice(out.length);
    if (!started) {
      out = out.replace(/^\s+/, "");
      if (out === "") continue;
      started = true;
    }
    if (out !== "") yield out;
  }
  const rest = started ? pending : pending.replace(/^\s+/, "");
  if (rest !== "") yield rest;
  else if (!started && noted) yield getNoDataFallback(lang);
  await noted;
}

/**
 * A question as it is kept: personal data masked ({@linkcode maskPersonalData}:
 * e-mails, phones, CURP, RFC, INE, cards, addresses, names), spaces
 * collapsed, cut to {@linkcode MAX_QUESTION_LENGTH} characters after
 * masking, so a cut never leaves half an address unmasked.
 */
export function maskQuestion(question: string): string {
  const masked = maskPersonalData(question).replace(/\s+/g, " ").trim();
  return [...masked].slice(0, MAX_QUESTION_LENGTH).join("");
}

/**
 * Spanish and English words that do not change what a question asks about
 * (question words do, and stay), so a question is grouped with the ones
 * that read the same in the language it was asked in.
 */
const STOP_WORDS = new Set(
  ("a al algo algun alguna alguno algunos con de del el en es esta este esto hay la las le lo los me mi muy o para pero por puedo puede que se si sin su sus te tiene tienen un una uno unos y ya yo hola porfa favor gracias " +
    "an and any are at be can could do does for have hello hi i in is it me my of on or please some thank thanks the there this to with would you your")
    .split(" "),
);

/**
 * The form questions are grouped by: lower case, no accents, no
 * punctuation, no stop-words, single spaces. Two questions with the same
 * form are one group in the console.
 */
export function normalizeQuestion(question: string): string {
  const words = question.toLowerCase()
    .normalize("NFD").replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim().split(" ")
    .filter((word) => word !== "" && !STOP_WORDS.has(word));
  return words.join(" ");
}

/**
 * Records a visitor's question the data set could not answer: masked, cut
 * and grouped with the ones that read the same, and counted on the
 * dashboard as answered without the data (on `timeZone`'s day), so
 * "questions answered" counts only replies with it. A failure is logged,
 * never passed on: the visitor's reply does not depend on it.
 */
export async function noteUnansweredQuestion(
  kv: Deno.Kv,
  { question, now, timeZone }: {
    question: string;
    now: Date;
    timeZone: string;
  },
): Promise<QuestionGroup | null> {
  const [group] = await Promise.all([
    keepUnansweredQuestion(kv, { question, now }),
    recordChatNoData(kv, { at: now, timeZone }).catch((error) => {
      console.error("Chat: the dashboard's counters were not written:", error);
    }),
  ]);
  return group;
}

async function keepUnansweredQuestion(
  kv: Deno.Kv,
  { question, now }: { question: string; now: Date },
): Promise<QuestionGroup | null> {
  const text = maskQuestion(question);
  if (text === "") return null;
  try {
    return await recordUnansweredQuestion(kv, {
      key: [...(normalizeQuestion(text) || text.toLowerCase())].slice(
        0,
        MAX_QUESTION_LENGTH,
      ).join(""),
      text,
      now,
    });
  } catch (error) {
    console.error("Could not record an unanswered chat question:", error);
    return null;
  }
}
