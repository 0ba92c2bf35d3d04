/**
 * The portal's open data: daily visits per attraction and monthly ratings
 * per attraction, as CSV files (UTF-8, a header row, ISO dates) described
 * by a Frictionless Data Package (`datapackage.json`) that a city's
 * open-data portal can harvest. Nothing personal goes in: no notes, no
 * user, and every count under {@linkcode SUPPRESS_BELOW} is an empty cell,
 * so no tourist can be singled out by a small number.
 *
 * Visits are published for complete days only (up to yesterday in the
 * municipality's time zone), so a file does not change during the day it
 * is read; ratings by the month they were given, the current month so far.
 */
import { toCsv } from "./csv.ts";
import { getLocalTime } from "@/lib/db/stats.ts";
import { listMonthlyRatingCounts } from "@/lib/db/stats.ts";
import {
  getFirstVisitDay,
  listDailyVisitCounts,
  listRatedVisits,
} from "@/lib/db/open_data.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import type { OpenDataLicense } from "./licenses.ts";

/** Counts under this are published as an empty cell. */
export const SUPPRESS_BELOW = 5;

/** The open data's files, by the name in their URL. */
export const OPEN_DATA_FILES = {
  visits: "visitas-diarias.csv",
  ratings: "calificaciones-mensuales.csv",
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

function getYesterday(now: Date, timeZone: string): string {
  const { day } = getLocalTime(now, timeZone);
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

function suppress(count: number): number | "" {
  return count < SUPPRESS_BELOW ? "" : count;
}

function getNames(data: TourismData): Map<string, string> {
  return new Map(data.attractions.map((a) => [a.slug, a.name]));
}

/** `fecha,atractivo,nombre,visitas`: one row per day and attraction with visits, up to yesterday. */
export async function buildDailyVisitsCsv(
  { kv, data, now }: Pick<OpenDataSource, "kv" | "data" | "now">,
): Promise<string> {
  const names = getNames(data);
  const to = getYesterday(now, data.municipality.timeZone);
  const from = await getFirstVisitDay(kv);
  const rows = from && from <= to
    ? await listDailyVisitCounts(kv, { from, to })
    : [];
  return toCsv(
    rows.map((row) => [
      row.day,
      row.slug,
      names.get(row.slug) ?? row.slug,
      suppress(row.count),
    ]),
    { header: true, columns: ["fecha", "atractivo", "nombre", "visitas"] },
  );
}

/** `mes,atractivo,nombre,calificaciones,promedio`: one row per month and attraction rated. */
export async function buildMonthlyRatingsCsv(
  { kv, data, now }: Pick<OpenDataSource, "kv" | "data" | "now">,
): Promise<string> {
  const names = getNames(data);
  const toMonth = getLocalTime(now, data.municipality.timeZone).month;
  const counts = await listMonthlyRatingCounts(kv, {
    fromMonth: "0000-01",
    toMonth,
  });
  const byMonth = new Map<string, { count: number; sum: number }>();
  for (const { month, slug, rating, count } of counts) {
    const id = `${month}\u0000${slug}`;
    const total = byMonth.get(id) ?? { count: 0, sum: 0 };
    total.count += count;
    total.sum += rating * count;
    byMonth.set(id, total);
  }
  const rows = [...byMonth.entries()].sort(([a], [b]) => a < b ? -1 : 1).map(
    ([id, { count, sum }]) => {
      const [month, slug] = id.split("\u0000");
      const shown = count >= SUPPRESS_BELOW;
      return [
        month,
        slug,
        names.get(slug) ?? slug,
        shown ? count : "",
        shown ? (sum / count).toFixed(2) : "",
      ];
    },
  );
  return toCsv(rows, {
    header: true,
    columns: ["mes", "atractivo", "nombre", "calificaciones", "promedio"],
  });
}

const SUPPRESSION_NOTE =
  `Vacío cuando el número es menor que ${SUPPRESS_BELOW}: se omite para que ninguna persona pueda ser identificada.`;

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
          "Una fila por día y atractivo con al menos una visita verificada, hasta el día anterior a la actualización. Un día sin fila no tuvo visitas.",
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
              constraints: { minimum: SUPPRESS_BELOW },
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
          "Calificaciones vigentes por el mes en que se dieron (el mes en curso, hasta la actualización). Sin notas.",
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
              constraints: { minimum: SUPPRESS_BELOW },
            },
            {
              name: "promedio",
              type: "number",
              title: "Promedio de estrellas (1 a 5)",
              description:
                "Con dos decimales. Vacío cuando las calificaciones del mes son menos de " +
                `${SUPPRESS_BELOW}.`,
              constraints: { minimum: 1, maximum: 5 },
            },
          ],
          missingValues: [""],
          primaryKey: ["mes", "atractivo"],
        },
      },
    ],
  };
}

/** Every rating with its notes, for admins: `fecha,atractivo,nombre,calificacion,notas,nota_oculta`, streamed. */
export function streamRatingsWithNotesCsv(
  { kv, data }: Pick<OpenDataSource, "kv" | "data">,
): ReadableStream<Uint8Array> {
  const names = getNames(data);
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
          visit.ratedAt ?? visit.visitedAt,
          visit.slug,
          names.get(visit.slug) ?? visit.slug,
          visit.rating ?? "",
          visit.notes ?? "",
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
