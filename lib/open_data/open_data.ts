/**
 * The portal's open data: daily visits per attraction, monthly ratings
 * per attraction and monthly redemptions of the partners' prizes, as CSV files (UTF-8, a header row, ISO dates) described
 * by a Frictionless Data Package (`datapackage.json`) that a city's
 * open-data portal can harvest, and the same figures the attraction pages
 * show. Nothing personal goes in: no notes, no user, and every figure
 * follows the disclosure rule (./disclosure.ts): closed periods only,
 * frozen once published, and a blank where fewer than
 * {@linkcode MIN_PEOPLE} people are behind it.
 */
import { listPartners, listPrizeCounts, listPrizes } from "@/lib/db/rewards.ts";
import { toCsv } from "./csv.ts";
import {
  freezeClosedPeriods,
  getPublishedMonth,
  listPublishedDays,
  listPublishedMonths,
  listRatedVisits,
} from "@/lib/db/open_data.ts";
import { readNote } from "@/lib/db/notes.ts";
import { getLocalTime, getLocalWallClock } from "@/lib/calendar/mod.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import type { OpenDataLicense } from "@/lib/config/licenses.ts";
import {
  getClosedPeriods,
  MIN_PEOPLE,
  publishCount,
  type PublishedRating,
  publishRating,
  publishTotal,
} from "./disclosure.ts";

export { MIN_PEOPLE };

/** The open data's files, by the name in their URL. */
export const OPEN_DATA_FILES = {
  visits: "visitas-diarias.csv",
  ratings: "calificaciones-mensuales.csv",
  redemptions: "premios-canjeados-mensuales.csv",
  descriptor: "datapackage.json",
} as const;

/** What the files are built from. */
export interface OpenDataSource {
  kv: Deno.Kv;
  data: TourismData;
  now: Date;
  license: OpenDataLicense;
  /** Absolute origin for the descriptor's links (the portal's). */
  origin: string;
}

/**
 * When the open data was last brought up to date: the start of today in
 * the municipality's time zone, as an ISO 8601 date-time with its offset.
 */
export function getOpenDataUpdatedAt(now: Date, timeZone: string): string {
  const { day } = getLocalTime(now, timeZone);
  const offset = new Intl.DateTimeFormat("en", {
    timeZone,
    timeZoneName: "longOffset",
  }).formatToParts(now).find((part) => part.type === "timeZoneName")?.value;
  const iso = offset?.replace(/^GMT/, "") || "Z";
  return `${day}T00:00:00${iso}`;
}

/**
 * Freezes what closed since the last read; the last day and month
 * published: the last closed ones, or those frozen before when freezing
 * waits (for the counters' backfill).
 */
async function getPublishable(
  kv: Deno.Kv,
  { now, data }: { now: Date; data: TourismData },
): Promise<{ day: string; month: string }> {
  const closed = getClosedPeriods(now, data.municipality.timeZone);
  const frozen = await freezeClosedPeriods(kv, closed);
  return {
    day: [frozen.day ?? closed.day, closed.day].sort()[0],
    month: [frozen.month ?? closed.month, closed.month].sort()[0],
  };
}

function getNames(data: TourismData): Map<string, string> {
  return new Map(data.attractions.map((a) => [a.slug, a.name]));
}

/** `fecha,atractivo,nombre,visitas`: one row per closed day and attraction with visits, as frozen. */
export async function buildDailyVisitsCsv(
  { kv, data, now }: Pick<OpenDataSource, "kv" | "data" | "now">,
): Promise<string> {
  const names = getNames(data);
  const { day } = await getPublishable(kv, { now, data });
  const rows = (await listPublishedDays(kv, { to: day })).flatMap((
    published,
  ) =>
    Object.entries(published.visits).sort(([a], [b]) => a < b ? -1 : 1).map((
      [slug, count],
    ) => [
      published.day,
      slug,
      names.get(slug) ?? slug,
      publishCount(count) ?? "",
    ])
  );
  return toCsv(rows, {
    header: true,
    columns: ["fecha", "atractivo", "nombre", "visitas"],
  });
}

/** `mes,atractivo,nombre,calificaciones,promedio`: one row per closed month and attraction rated, as frozen. */
export async function buildMonthlyRatingsCsv(
  { kv, data, now }: Pick<OpenDataSource, "kv" | "data" | "now">,
): Promise<string> {
  const names = getNames(data);
  const { month } = await getPublishable(kv, { now, data });
  const rows = (await listPublishedMonths(kv))
    .filter((published) => published.month <= month)
    .flatMap((published) =>
      Object.entries(published.ratings).filter(([, cell]) => cell.count > 0)
        .sort(([a], [b]) => a < b ? -1 : 1).map(([slug, cell]) => {
          const shown = publishRating(cell);
          return [
            published.month,
            slug,
            names.get(slug) ?? slug,
            shown?.count ?? "",
            shown ? shown.average.toFixed(2) : "",
          ];
        })
    );
  return toCsv(rows, {
    header: true,
    columns: ["mes", "atractivo", "nombre", "calificaciones", "promedio"],
  });
}

/**
 * `mes,comercio,nombre_comercio,premio,nombre_premio,personas`: one row per
 * closed month and prize of a partner business redeemed that month, the
 * passports that redeemed it (each counted once: a passport's first claim
 * of a prize), blank under {@linkcode MIN_PEOPLE}. No total by partner or
 * month: it would add up blanks. A closed month's counts no longer move.
 */
export async function buildMonthlyRedemptionsCsv(
  { kv, data, now }: Pick<OpenDataSource, "kv" | "data" | "now">,
): Promise<string> {
  const { month } = getClosedPeriods(now, data.municipality.timeZone);
  const [counts, prizes, partners] = await Promise.all([
    listPrizeCounts(kv, { from: "0000-01-01", to: `${month}-31` }),
    listPrizes(kv),
    listPartners(kv),
  ]);
  const people = new Map<string, number>();
  for (const row of counts) {
    if (row.people === 0) continue;
    const key = `${row.day.slice(0, 7)}|${row.prizeId}`;
    people.set(key, (people.get(key) ?? 0) + row.people);
  }
  const prizeById = new Map(prizes.map((p) => [p.id, p]));
  const partnerById = new Map(partners.map((p) => [p.id, p]));
  const rows = [...people].sort(([a], [b]) => a < b ? -1 : 1).map(
    ([key, count]) => {
      const [rowMonth, prizeId] = key.split("|");
      const prize = prizeById.get(prizeId);
      const partnerId = prize?.partnerId ?? "";
      return [
        rowMonth,
        partnerId,
        partnerById.get(partnerId)?.name ?? "",
        prizeId,
        prize?.name.es ?? "",
        publishCount(count) ?? "",
      ];
    },
  );
  return toCsv(rows, {
    header: true,
    columns: [
      "mes",
      "comercio",
      "nombre_comercio",
      "premio",
      "nombre_premio",
      "personas",
    ],
  });
}

/** An attraction's public figures: those of the last closed month, each null where the rule blanks it. */
export interface AttractionFigures {
  /** `YYYY-MM`: the month they are of. */
  month: string;
  rating: PublishedRating | null;
  /** Verified visits in the month. */
  visits: number | null;
}

/**
 * The figures an attraction's page shows: its last closed month's, frozen
 * like the open data's (the same ratings as the monthly file's row, and
 * the visits as the total of the daily file's rows when the rule lets the
 * total stand beside them), so no visit or rating moves a page until its
 * month is over.
 */
export async function getAttractionFigures(
  kv: Deno.Kv,
  { slug, now, data }: { slug: string; now: Date; data: TourismData },
): Promise<AttractionFigures> {
  const { month } = await getPublishable(kv, { now, data });
  const published = await getPublishedMonth(kv, month);
  const ratings = published?.ratings[slug];
  return {
    month,
    rating: ratings ? publishRating(ratings) : null,
    visits: publishTotal(published?.visits[slug] ?? []),
  };
}

const SUPPRESSION_NOTE =
  `Vacío cuando el número es menor que ${MIN_PEOPLE}: se omite para que ninguna persona pueda ser identificada.`;

/** The Frictionless Data Package that describes both files. */
export function buildDataPackage(
  { data, now, license, origin }: Omit<OpenDataSource, "kv">,
): Record<string, unknown> {
  const updated = getOpenDataUpdatedAt(now, data.municipality.timeZone);
  const base = `${origin}/datos`;
  const attraction = [
    {
      name: "atractivo",
      type: "string",
      title: "Atractivo (identificador)",
      description:
        "Identificador del atractivo; su página es /turismo/atractivos/<atractivo>.",
      constraints: { required: true, pattern: "[a-z0-9-]+" },
    },
    {
      name: "nombre",
      type: "string",
      title: "Nombre del atractivo",
      constraints: { required: true },
    },
  ];
  return {
    profile: "tabular-data-package",
    name: "turismo-visitas-y-calificaciones",
    title:
      `Visitas y calificaciones de los atractivos turísticos de ${data.municipality.name}`,
    description:
      `Visitas verificadas con el código de guía de cada atractivo y calificaciones de 1 a 5 estrellas que dejaron los turistas en el portal de turismo de ${data.municipality.name}, ${data.municipality.state}. Fechas en la zona horaria del municipio (${data.municipality.timeZone}). Sin datos personales: ${SUPPRESSION_NOTE}` +
      (data.meta.demo ? " Datos de demostración." : ""),
    homepage: base,
    created: updated,
    updated,
    licenses: [license],
    keywords: ["turismo", "visitas", "calificaciones", "datos abiertos"],
    resources: [
      {
        name: "visitas-diarias",
        path: `${base}/${OPEN_DATA_FILES.visits}`,
        profile: "tabular-data-resource",
        title: "Visitas diarias por atractivo",
        description:
          "Una fila por día y atractivo con al menos una visita verificada, hasta el día anterior a la actualización. Un día sin fila no tuvo visitas. Un día publicado no cambia después.",
        format: "csv",
        mediatype: "text/csv",
        encoding: "utf-8",
        schema: {
          fields: [
            {
              name: "fecha",
              type: "date",
              format: "default",
              title: "Día (AAAA-MM-DD)",
              constraints: { required: true },
            },
            ...attraction,
            {
              name: "visitas",
              type: "integer",
              title: "Visitas verificadas",
              description: SUPPRESSION_NOTE,
              constraints: { minimum: MIN_PEOPLE },
            },
          ],
          missingValues: [""],
          primaryKey: ["fecha", "atractivo"],
        },
      },
      {
        name: "calificaciones-mensuales",
        path: `${base}/${OPEN_DATA_FILES.ratings}`,
        profile: "tabular-data-resource",
        title: "Calificaciones mensuales por atractivo",
        description:
          "Calificaciones por el mes en que se dieron, de los meses ya terminados (el mes en curso se publica cuando termina). Un mes publicado no cambia después. Sin notas.",
        format: "csv",
        mediatype: "text/csv",
        encoding: "utf-8",
        schema: {
          fields: [
            {
              name: "mes",
              type: "yearmonth",
              title: "Mes (AAAA-MM)",
              constraints: { required: true },
            },
            ...attraction,
            {
              name: "calificaciones",
              type: "integer",
              title: "Calificaciones",
              description: SUPPRESSION_NOTE,
              constraints: { minimum: MIN_PEOPLE },
            },
            {
              name: "promedio",
              type: "number",
              title: "Promedio de estrellas (1 a 5)",
              description:
                "Con dos decimales. Vacío cuando las calificaciones del mes son menos de " +
                `${MIN_PEOPLE}.`,
              constraints: { minimum: 1, maximum: 5 },
            },
          ],
          missingValues: [""],
          primaryKey: ["mes", "atractivo"],
        },
      },
      {
        name: "premios-canjeados-mensuales",
        path: `${base}/${OPEN_DATA_FILES.redemptions}`,
        profile: "tabular-data-resource",
        title: "Premios canjeados en los comercios adheridos, por mes",
        description:
          "Una fila por mes terminado y premio de un comercio adherido canjeado ese mes: cuántos pasaportes lo canjearon (cada pasaporte cuenta una vez por premio). Sin totales por comercio ni por mes. Un mes publicado no cambia después.",
        format: "csv",
        mediatype: "text/csv",
        encoding: "utf-8",
        schema: {
          fields: [
            {
              name: "mes",
              type: "yearmonth",
              title: "Mes (AAAA-MM)",
              constraints: { required: true },
            },
            {
              name: "comercio",
              type: "string",
              title: "Comercio adherido (identificador)",
              constraints: { required: true },
            },
            {
              name: "nombre_comercio",
              type: "string",
              title: "Nombre del comercio",
            },
            {
              name: "premio",
              type: "string",
              title: "Premio (identificador)",
              constraints: { required: true },
            },
            { name: "nombre_premio", type: "string", title: "Premio" },
            {
              name: "personas",
              type: "integer",
              title: "Pasaportes que lo canjearon",
              description: SUPPRESSION_NOTE,
              constraints: { minimum: MIN_PEOPLE },
            },
          ],
          missingValues: [""],
          primaryKey: ["mes", "premio"],
        },
      },
    ],
  };
}

/**
 * `2026-11-27 13:30`: an instant on the municipality's clock, as a
 * spreadsheet reads a date and time.
 */
function formatLocalDateTime(iso: string, timeZone: string): string {
  return getLocalWallClock(iso, timeZone).slice(0, 16).replace("T", " ");
}

/**
 * Every rating with its notes, for admins:
 * `fecha,atractivo,nombre,calificacion,notas,nota_oculta`, streamed; a
 * note an admin hid is an empty `notas` with `nota_oculta` `sí` (its text
 * is on the moderation list only, lib/db/notes.ts);
 * `fecha` is when it was rated (else visited) on the municipality's clock,
 * `YYYY-MM-DD HH:MM`.
 */
export function streamRatingsWithNotesCsv(
  { kv, data }: Pick<OpenDataSource, "kv" | "data">,
): ReadableStream<Uint8Array> {
  const names = getNames(data);
  const { timeZone } = data.municipality;
  const encoder = new TextEncoder();
  const visits = listRatedVisits(kv);
  let headerSent = false;
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(toCsv([[
          "fecha",
          "atractivo",
          "nombre",
          "calificacion",
          "notas",
          "nota_oculta",
        ]])));
      }
      const lines: unknown[][] = [];
      for (let i = 0; i < 200; i++) {
        const next = await visits.next();
        if (next.done) break;
        const visit = next.value;
        lines.push([
          formatLocalDateTime(visit.ratedAt ?? visit.visitedAt, timeZone),
          visit.slug,
          names.get(visit.slug) ?? visit.slug,
          visit.rating ?? "",
          // A hidden note's text is for the moderation list alone.
          readNote(visit, "others") ?? "",
          visit.notesHiddenAt ? "sí" : "no",
        ]);
      }
      if (lines.length > 0) {
        controller.enqueue(encoder.encode(toCsv(lines)));
      }
      if (lines.length < 200) controller.close();
    },
    async cancel() {
      await visits.return(undefined);
    },
  });
}
