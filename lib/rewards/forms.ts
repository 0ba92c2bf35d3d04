/**
 * The console's partner and prize forms, read and checked: each field's
 * errors by its name (in Spanish, the console's), or the record to save.
 * The form's own names are Spanish, as the console's other forms.
 */
import { z } from "zod";
import { BADGES } from "@/lib/badges/badges.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import { t } from "@/lib/i18n/mod.ts";
import type { Partner, Prize, PrizeRequirement } from "@/lib/prizes/types.ts";

/** Each field's problems, by the field's name. */
export type FieldErrors = Record<string, string[]>;

export type FormResult<T> =
  | { ok: true; value: T }
  | { ok: false; errors: FieldErrors };

const say = (key: string, values?: Record<string, string | number>) =>
  t("es", `panel_rewards.error.${key}`, values);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function collect(issues: z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "form");
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

const text = (max: number) =>
  z.string().trim().max(max, say("tooLong", { max }));
const required = (max: number) => text(max).min(1, say("required"));
const optionalNumber = (min: number, max: number) =>
  z.string().trim().transform((value, ctx) => {
    if (value === "") return null;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max) {
      ctx.addIssue({ code: "custom", message: say("range", { min, max }) });
      return z.NEVER;
    }
    return n;
  });
const wholeNumber = (min: number, max: number) =>
  z.string().trim().transform((value, ctx) => {
    const n = Number(value);
    if (value === "" || !Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: "custom", message: say("whole", { min, max }) });
      return z.NEVER;
    }
    return n;
  });

/** A partner from its form: a provider of the data set (its name, address and place by default) or a new business. */
export function parsePartnerForm(
  form: Record<string, string>,
  { data, current, now }: {
    data: TourismData;
    current: Partner | null;
    now: Date;
  },
): FormResult<Partner> {
  const providers = new Map(data.providers.map((p) => [p.slug, p]));
  const schema = z.object({
    proveedor: z.string().trim().refine(
      (slug) => slug === "" || providers.has(slug),
      say("unknownProvider"),
    ),
    nombre: text(120),
    direccion: text(200),
    horario: text(200),
    lat: optionalNumber(-90, 90),
    lng: optionalNumber(-180, 180),
  });
  const parsed = schema.safeParse({
    proveedor: form.proveedor ?? "",
    nombre: form.nombre ?? "",
    direccion: form.direccion ?? "",
    horario: form.horario ?? "",
    lat: form.lat ?? "",
    lng: form.lng ?? "",
  });
  const errors = parsed.success ? {} : collect(parsed.error.issues);
  // Checked apart from the schema, so they show beside other mistakes too.
  const chosen = providers.get((form.proveedor ?? "").trim());
  for (const field of ["nombre", "direccion"]) {
    if (!chosen && (form[field] ?? "").trim() === "" && !errors[field]) {
      (errors[field] ??= []).push(say("required"));
    }
  }
  if (((form.lat ?? "").trim() === "") !== ((form.lng ?? "").trim() === "")) {
    (errors.lng ??= []).push(say("bothOrNone"));
  }
  if (!parsed.success || Object.keys(errors).length > 0) {
    return { ok: false, errors };
  }
  const value = parsed.data;
  const provider = providers.get(value.proveedor);
  const at = now.toISOString();
  return {
    ok: true,
    value: {
      id: current?.id ?? newId(value.nombre || provider!.name),
      name: value.nombre || provider!.name,
      providerSlug: provider?.slug ?? null,
      address: value.direccion || provider!.address,
      hours: value.horario,
      location: value.lat !== null && value.lng !== null
        ? { lat: value.lat, lng: value.lng }
        : provider?.location ?? null,
      active: form.activo === "on",
      pinVersion: current?.pinVersion ?? 0,
      createdAt: current?.createdAt ?? at,
      updatedAt: at,
    },
  };
}

/** A prize from its form, checked against the data set and the partners. */
export function parsePrizeForm(
  form: Record<string, string>,
  { data, partners, current, now }: {
    data: TourismData;
    partners: readonly Partner[];
    current: Prize | null;
    now: Date;
  },
): FormResult<Prize> {
  const slugs = data.attractions.map((a) => a.slug);
  const schema = z.object({
    comercio: z.string().refine(
      (id) => partners.some((p) => p.id === id),
      say("choosePartner"),
    ),
    nombre_es: required(80),
    nombre_en: text(80),
    descripcion_es: text(300),
    descripcion_en: text(300),
    requisito: z.enum(["stamps", "badge", "route", "attractions"], {
      error: say("chooseRequirement"),
    }),
    desde: z.string().regex(DAY, say("day")),
    hasta: z.string().regex(DAY, say("day")),
    unidades: wholeNumber(1, 1_000_000),
    per_day: z.string().trim().transform((value, ctx) => {
      if (value === "") return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 100_000) {
        ctx.addIssue({
          code: "custom",
          message: say("whole", { min: 1, max: 100_000 }),
        });
        return z.NEVER;
      }
      return n;
    }),
    per_passport: wholeNumber(1, 100),
  });
  const parsed = schema.safeParse({
    comercio: form.comercio ?? "",
    nombre_es: form.nombre_es ?? "",
    nombre_en: form.nombre_en ?? "",
    descripcion_es: form.descripcion_es ?? "",
    descripcion_en: form.descripcion_en ?? "",
    requisito: form.requisito ?? "",
    desde: form.desde ?? "",
    hasta: form.hasta ?? "",
    unidades: form.unidades ?? "",
    per_day: form.per_day ?? "",
    per_passport: form.per_passport ?? "",
  });
  const errors: FieldErrors = parsed.success
    ? {}
    : collect(parsed.error.issues);
  // Checked apart from the schema, so it shows beside other mistakes too.
  const [from, until] = [form.desde ?? "", form.hasta ?? ""];
  if (DAY.test(from) && DAY.test(until) && until < from) {
    (errors.hasta ??= []).push(say("untilBefore"));
  }
  let requirement: PrizeRequirement | null = null;
  const kind = form.requisito;
  if (kind === "stamps") {
    const n = Number(form.sellos);
    if (Number.isInteger(n) && n >= 1 && n <= slugs.length) {
      requirement = { kind, count: n };
    } else {
      errors.sellos = [say("whole", { min: 1, max: slugs.length })];
    }
  } else if (kind === "badge") {
    if (BADGES.some((b) => b.id === form.insignia)) {
      requirement = { kind, badgeId: form.insignia };
    } else errors.insignia = [say("chooseBadge")];
  } else if (kind === "route") {
    if (data.routes.some((r) => r.slug === form.ruta)) {
      requirement = { kind, routeSlug: form.ruta };
    } else errors.ruta = [say("chooseRoute")];
  } else if (kind === "attractions") {
    const chosen = slugs.filter((slug) => form[`atractivo_${slug}`] === "on");
    if (chosen.length > 0) requirement = { kind, slugs: chosen };
    else errors.atractivos = [say("chooseAttractions")];
  }
  if (!parsed.success || !requirement || errors.hasta) {
    return { ok: false, errors };
  }
  const value = parsed.data;
  const at = now.toISOString();
  return {
    ok: true,
    value: {
      id: current?.id ?? newId(value.nombre_es),
      partnerId: value.comercio,
      name: { es: value.nombre_es, en: value.nombre_en },
      description: { es: value.descripcion_es, en: value.descripcion_en },
      requirement,
      validFrom: value.desde,
      validUntil: value.hasta,
      stockTotal: value.unidades,
      stockPerDay: value.per_day,
      perPassport: value.per_passport,
      requiresAccount: form.solo_cuentas === "on",
      status: form.activo === "on" ? "active" : "paused",
      createdAt: current?.createdAt ?? at,
      updatedAt: at,
    },
  };
}

/** An id from a name: readable in addresses and reports, with a random tail. */
function newId(name: string): string {
  const base = name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 30);
  return `${base || "premio"}-${crypto.randomUUID().slice(0, 4)}`;
}
