/**
 * Masks the personal data a visitor may type into a chat question before
 * the portal keeps it (lib/chat/unanswered.ts): e-mail addresses (also
 * written "arroba ... punto com", "(at)", "[at]", " at ... dot ..."),
 * Mexican IDs (CURP, RFC, the INE's clave de elector and its CIC and OCR
 * numbers), card numbers, phone numbers, street addresses and people's
 * names given as such ("me llamo ...", "my name is ..."). Each is replaced
 * by a placeholder naming its kind, so the tourism office still reads what
 * was asked. Text is NFKC-normalised first: full-width digits and letters
 * are matched like plain ones.
 *
 * Names and addresses are found by what introduces them, not by a list of
 * names: a street with a number ("Calle Hidalgo 123") is an address, a
 * street alone ("la calle Hidalgo") is a place of the town and stays.
 */
import { findPhoneNumbersInText } from "libphonenumber-js";

/** The placeholders, one per kind of personal data. */
export const MASKS = {
  email: "[correo]",
  phone: "[teléfono]",
  curp: "[CURP]",
  rfc: "[RFC]",
  ine: "[INE]",
  card: "[tarjeta]",
  address: "[dirección]",
  name: "[nombre]",
} as const;

const L = String.raw`[\p{L}\p{N}_%+-]`;
// "." or a spelled-out dot; spaced words only where they cannot be prose.
const WORD_DOT = String
  .raw`(?:\s*[(\[{<]\s*(?:dot|punto)\s*[)\]}>]\s*|\s+(?:dot|punto)\s+)`;
const DOT = String.raw`(?:\s*\.\s*|${WORD_DOT})`;
const TLD = String
  .raw`(?:com|net|org|edu|gob|gov|mx|es|us|info|io|co|uk|ca|de|fr|it|me|app|dev|biz)`;
const LOCAL = String.raw`${L}+(?:${DOT}${L}+)*`;
const DOMAIN = String.raw`${L}+(?:${DOT}${L}+)*${DOT}${TLD}(?![\p{L}\p{N}])`;
const PROVIDER = String
  .raw`(?:gmail|hotmail|yahoo|outlook|live|icloud|prodigy|protonmail|aol|msn)`;
const EMAILS = [
  // "@" (maybe spaced), "(at)", "[arroba]", " arroba ".
  new RegExp(
    String
      .raw`${LOCAL}(?:\s*@\s*|\s*[(\[{<]\s*(?:at|arroba)\s*[)\]}>]\s*|\s+arroba\s+)${DOMAIN}`,
    "giu",
  ),
  // " at " is English prose ("booked at booking.com") unless the dot is
  // spelled out too, or the domain is a mail provider.
  new RegExp(
    String
      .raw`${L}+(?:${WORD_DOT}${L}+)*\s+at\s+${L}+(?:${WORD_DOT}${L}+)*${WORD_DOT}${TLD}(?![\p{L}\p{N}])`,
    "giu",
  ),
  new RegExp(
    String
      .raw`${L}+(?:\.${L}+)*\s+at\s+${PROVIDER}${DOT}${TLD}(?:${DOT}mx)?(?![\p{L}\p{N}])`,
    "giu",
  ),
  // An address cut short ("ana@gmail") is still somebody's.
  new RegExp(String.raw`${L}+(?:\.${L}+)*@${L}+(?:\.${L}+)*`, "giu"),
];

const MONTH_DAY = String.raw`\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])`;
const CURP = new RegExp(
  String
    .raw`(?<![\p{L}\p{N}])[A-Z][AEIOUX][A-Z]{2}[\s-]?${MONTH_DAY}[\s-]?[HMX][A-Z]{5}[\s-]?[A-Z\d]\d(?![\p{L}\p{N}])`,
  "giu",
);
// Clave de elector: six letters, birth date, state number, sex, three digits.
const ELECTOR_KEY = new RegExp(
  String.raw`(?<![\p{L}\p{N}])[A-Z]{6}\d{8}[HM]\d{3}(?![\p{L}\p{N}])`,
  "giu",
);
const RFC = new RegExp(
  String
    .raw`(?<![\p{L}\p{N}])[A-ZÑ&]{3,4}-?${MONTH_DAY}(?:-?[A-Z\d]{3})?(?![\p{L}\p{N}])`,
  "giu",
);
// A number the visitor says is from their voter card: CIC, OCR, IDMEX.
const INE_NUMBER = new RegExp(
  String
    .raw`(?<![\p{L}\p{N}])((?:CIC|OCR|INE|IFE|credencial(?: de elector| para votar)?|elector)(?![\p{L}\p{N}])[^\d\n]{0,30}?)(?:IDMEX)?\d[\d\s.-]{6,}\d`,
  "giu",
);
const IDMEX = /(?<![\p{L}\p{N}])IDMEX\s*\d[\d<\s]{4,}\d/giu;
// Runs of digits with the separators people type ("4152 3138-0000.1234").
const DIGIT_RUN = /(?<![\p{L}\p{N}])\+?\d(?:[ .-]?\(?\d\)?){6,}(?![\p{N}])/gu;
/**
 * Runs of 13 digits or more with any separator people type between them
 * (a space, hyphen, dot or slash, maybe spaced: "4935/7544/3351/0504",
 * "4935 - 7544 - 3351 - 0504"): a card number, or an ID as long. Not after a
 * "+" (a phone number with its country code).
 */
const LONG_RUN =
  /(?<![\p{L}\p{N}+])\d(?:(?:\s?[./-]\s?|\s)?\d){12,}(?![\p{N}])/gu;
// Dates typed with slashes, one after another ("12/10/2026-15/10/2026"): a
// stay's dates, not a card.
const SLASH_DATE = String
  .raw`(?:\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2})|\d{4}\/\d{1,2}\/\d{1,2})`;
const SLASH_DATES = new RegExp(
  String.raw`^${SLASH_DATE}(?:(?:\s?[.-]\s?|\s)${SLASH_DATE})+$`,
  "u",
);

const STREET_ES = String
  .raw`(?:calle|c\.|av\.?|avda\.?|avenida|blvd\.?|boulevard|bulevar|calzada|calz\.|privada|priv\.|callej[oó]n|andador|prolongaci[oó]n|prol\.|circuito|cerrada)`;
const NUMBER_ES = String
  .raw`(?:#\s*|n[oº°]\.?\s*|n[uú]m(?:ero|\.)?\s*)?\d{1,5}[A-Z]?(?![\p{L}\p{N}])`;
const UNIT_ES = String
  .raw`(?:\s*,?\s*(?:int(?:erior)?\.?|depto\.?|departamento|dpto\.?|local|piso)\s*#?\s*[\p{L}\d-]{1,5})?`;
const AREA_ES = String
  .raw`(?:\s*,?\s*(?:col(?:onia)?\.?|fracc(?:ionamiento)?\.?|barrio)\s+[\p{L}]+(?:\s+(?:de\s+|del\s+|la\s+|las\s+|los\s+|el\s+)?\p{Lu}[\p{L}]*){0,3})?`;
const ZIP_ES = String
  .raw`(?:\s*,?\s*(?:C\.?\s?P\.?|c[oó]digo postal)\s*\d{5})?`;
// Words that cannot be part of a street's name: "el paseo dura 2 horas".
const NOT_STREET = String
  .raw`(?!(?:en|a|al|por|para|con|que|dura|tiene|hay|es|son|y|o|cuesta|abre|cierra|desde|hasta|como|sale|salen|tarda|mide|the|is|for|at|to|takes|has)(?![\p{L}]))`;
const STREET_WORD = String.raw`${NOT_STREET}[\p{L}][\p{L}.'-]*`;
// "Calle 5 de Mayo 120", "Av. 16 de Septiembre 45": streets named for dates.
const STREET_NAME = String
  .raw`(?:\d{1,2}\s+de\s+)?${STREET_WORD}(?:\s+${STREET_WORD}){0,3}?`;
const ADDRESSES = [
  new RegExp(
    String
      .raw`(?<![\p{L}\p{N}])\d{1,6}\s+(?:[NSEW]\.?\s+)?(?:\p{Lu}[\p{L}'-]*\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Way|Ct|Court|Pl|Place|Ter|Terrace|Pkwy|Parkway|Hwy|Highway)\b\.?(?:\s*,?\s*(?:Apt|Apartment|Suite|Unit|#)\s*\.?\s*#?\s*[\p{L}\d-]{1,5})?`,
    "gu",
  ),
  new RegExp(
    String
      .raw`(?<![\p{L}])${STREET_ES}\s+${STREET_NAME}\s*,?\s*${NUMBER_ES}${UNIT_ES}${AREA_ES}${ZIP_ES}`,
    "giu",
  ),
  // "Hidalgo 123, col. Centro": a number and a colonia make an address.
  new RegExp(
    String
      .raw`(?<![\p{L}])\p{Lu}[\p{L}]+(?:\s+[\p{L}]+){0,2}\s*${NUMBER_ES}${UNIT_ES}\s*,?\s*(?:col(?:onia)?\.?|fracc(?:ionamiento)?\.?)\s+[\p{L}]+(?:\s+\p{Lu}[\p{L}]*){0,3}${ZIP_ES}`,
    "gu",
  ),
];

// What someone says is their address, up to the end of the sentence: always
// after "mi dirección es", only with a number after "vivo en" (so "vivo en
// Guadalajara" stays).
const SAID_ADDRESS =
  /(?<![\p{L}])(mi direcci[oó]n es|mi domicilio es|direcci[oó]n:|domicilio:|my address is|address:)(\s+)([^?!¿¡;\n]+?)(?=\s*(?:[?!¿¡;\n]|\.\s|\.?$))/giu;
const LIVE_AT =
  /(?<![\p{L}])(vivo en|vivimos en|nos hospedamos en|me hospedo en)(\s+)([^?!¿¡;\n]*?\d[^?!¿¡;\n]*?)(?=\s*(?:[?!¿¡;\n]|\.\s|\.?$))/giu;

// Words that end a name given after "me llamo" / "my name is".
const NOT_NAME = new Set(
  ("y e o u a al de del en con para por que quiero quisiera queremos busco necesito tengo vengo voy estoy somos soy me mi mis te le les lo la las los el un una es son hay como pero si no por favor gracias hola " +
    "and or but i i'm im am is are was we my me you to from for in on at with of the a an and would want need have has will can could please thanks thank hello hi")
    .split(" "),
);
// Capitalised words after "soy" / "I'm" that are not names.
const NOT_NAME_AFTER_SOY = new Set(
  ("mexicano mexicana tapatío tapatía jalisciense americano americana estadounidense canadiense español española extranjero extranjera turista vegetariano vegetariana vegano vegana alérgico alérgica " +
    "american mexican canadian british english spanish german french italian japanese chinese korean australian brazilian argentinian colombian chilean peruvian dutch irish scottish indian vegan vegetarian allergic here there in from at on traveling travelling visiting looking staying not new so very")
    .split(" "),
);
const NAME_TRIGGER =
  /(?<![\p{L}])(me llamo|mi nombre es|de parte de|nombre:|a nombre de|bajo el nombre de|my name is|my name's|name:|under the name(?: of)?|in the name of|(?:booked|reservation|reserved) under(?: the name(?: of)?)?|(?:mis?|tus?|nuestr[oa]s?|my|our)\s+\p{L}+(?:'s)?\s+(?:se llaman?|is called|are called|name is|names are)|soy|i am|i'm|atentamente,?|atte\.?,?|saludos,|regards,|cheers,|thanks,|gracias,)(?:\s*:\s*|\s+)/giu;
// Triggers after which the next word is a name only if capitalised.
const WEAK_TRIGGERS = new Set([
  "soy",
  "i am",
  "i'm",
  "saludos,",
  "regards,",
  "cheers,",
  "thanks,",
  "gracias,",
]);

const CONNECTORS = new Set(["de", "del", "la", "las", "los", "y"]);

function maskNames(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(NAME_TRIGGER)) {
    const start = match.index + match[0].length;
    if (start < last) continue;
    const trigger = match[1].toLowerCase();
    const weak = WEAK_TRIGGERS.has(trigger);
    const run = /^[^,.;:!?¿¡()[\]\n]*/u.exec(text.slice(start))![0];
    const taken = takeName(run, weak);
    if (taken === 0) continue;
    out += text.slice(last, start) + MASKS.name;
    last = start + taken;
  }
  return out + text.slice(last);
}

/** How many characters of `run` (words after a trigger) are the name. */
function takeName(run: string, weak: boolean): number {
  const parts = [...run.matchAll(/(\s+|[^\s]+)/gu)].map((m) => m[0]);
  let end = 0;
  let length = 0;
  let words = 0;
  for (let i = 0; i < parts.length && words < 4; i++) {
    const part = parts[i];
    if (/^\s+$/.test(part)) {
      length += part.length;
      continue;
    }
    const lower = part.toLowerCase();
    const capital = /^\p{Lu}/u.test(part);
    const first = words === 0;
    if (first) {
      if (weak && (!capital || NOT_NAME_AFTER_SOY.has(lower))) return 0;
      if (!weak && NOT_NAME.has(lower)) return 0;
    } else if (CONNECTORS.has(lower)) {
      // A connector belongs to the name only if a capitalised word follows.
      const next = parts.slice(i + 1).find((p) =>
        !/^\s+$/.test(p) && !CONNECTORS.has(p.toLowerCase())
      );
      if (!next || !/^\p{Lu}/u.test(next)) break;
      length += part.length;
      continue;
    } else if (NOT_NAME.has(lower) || (weak && !capital)) {
      break;
    }
    length += part.length;
    end = length;
    words++;
  }
  return end;
}

function isLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function maskDigitRun(run: string): string {
  const digits = run.replace(/\D/g, "");
  if (!run.startsWith("+") && digits.length >= 13 && digits.length <= 19) {
    // A card number, or any ID this long: nothing a tourist question needs.
    return isLuhn(digits) || digits.length !== 13 ? MASKS.card : MASKS.ine;
  }
  return MASKS.phone;
}

function maskPhones(text: string): string {
  // Whole words only: an address or a price never holds a valid number.
  const found = findPhoneNumbersInText(text, { defaultCountry: "MX" });
  let out = "";
  let last = 0;
  for (const { startsAt, endsAt } of found) {
    if (startsAt < last) continue;
    out += text.slice(last, startsAt) + MASKS.phone;
    last = endsAt;
  }
  return out + text.slice(last);
}

/**
 * `text` with every piece of personal data it holds replaced by the
 * placeholder of its kind ({@linkcode MASKS}); NFKC-normalised, otherwise
 * unchanged: a question with no personal data comes back as it was typed.
 */
export function maskPersonalData(text: string): string {
  let out = text.normalize("NFKC");
  for (const email of EMAILS) out = out.replace(email, MASKS.email);
  out = out
    .replace(CURP, MASKS.curp)
    .replace(ELECTOR_KEY, MASKS.ine)
    .replace(RFC, MASKS.rfc)
    .replace(IDMEX, MASKS.ine)
    .replace(INE_NUMBER, `$1${MASKS.ine}`);
  // Long runs first: a card number is not read as phone numbers.
  out = out.replace(
    LONG_RUN,
    (run) =>
      SLASH_DATES.test(run)
        ? run
        // More than 19 digits: a card number and its expiry or code, too.
        : run.replace(/\D/g, "").length > 19
        ? MASKS.card
        : maskDigitRun(run),
  );
  out = out.replace(
    DIGIT_RUN,
    (run) =>
      !run.startsWith("+") && run.replace(/\D/g, "").length >= 13
        ? maskDigitRun(run)
        : run,
  );
  out = maskPhones(out);
  // Numbers of 7 to 12 digits the phone library does not take (a foreign
  // number without its country code) are still somebody's number.
  out = out.replace(DIGIT_RUN, maskDigitRun);
  for (const address of ADDRESSES) out = out.replace(address, MASKS.address);
  for (const said of [SAID_ADDRESS, LIVE_AT]) {
    out = out.replace(
      said,
      (_, intro, space, rest: string) =>
        `${intro}${space}${
          rest.replace(/^(?:\[dirección\][\s,]*)+$/u, "") === ""
            ? rest
            : MASKS.address
        }${/,\s*$/.test(rest) ? "," : ""}`,
    );
  }
  return maskNames(out);
}
