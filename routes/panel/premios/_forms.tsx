import type { ComponentChildren } from "preact";
import { BADGES, getBadgeName } from "@/lib/badges/mod.ts";
import type { TourismData } from "@/lib/data/mod.ts";
import type { Partner, Prize } from "@/lib/db/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import type { FieldErrors } from "@/lib/rewards/mod.ts";

const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_rewards.${key}`, values);
}

/** A form as shown: the record it edits (null: a new one), the version read, what was typed and its errors. */
export interface ShownForm<T> {
  current: T | null;
  versionstamp: string | null;
  typed?: Record<string, string>;
  errors?: FieldErrors;
  /** Another save came first: the form shows the stored version. */
  conflict?: boolean;
}

/** One labelled field with its errors beside it. */
function Field(
  { name, label, errors, children, hint }: {
    name: string;
    label: string;
    errors?: FieldErrors;
    hint?: string;
    children: (props: Record<string, unknown>) => ComponentChildren;
  },
) {
  const problems = errors?.[name];
  const errorId = `${name}-error`;
  const hintId = hint ? `${name}-hint` : undefined;
  return (
    <div class="form-field" data-field={name}>
      <label for={name}>{label}</label>
      {hint && <span class="hint" id={hintId}>{hint}</span>}
      {children({
        id: name,
        name,
        "aria-invalid": problems ? "true" : undefined,
        "aria-describedby": [problems ? errorId : "", hintId ?? ""].join(" ")
          .trim() || undefined,
      })}
      {problems && (
        <span class="field-error" id={errorId}>{problems.join(" ")}</span>
      )}
    </div>
  );
}

function Check(
  { name, label, checked }: { name: string; label: string; checked: boolean },
) {
  return (
    <div class="form-field form-field--check">
      <label>
        <input type="checkbox" name={name} checked={checked} /> {label}
      </label>
    </div>
  );
}

function Banner({ shown }: { shown: ShownForm<unknown> }) {
  if (shown.conflict) {
    return <p class="form-error" role="alert">{tr("conflict")}</p>;
  }
  if (shown.errors) {
    return <p class="form-error" role="alert">{tr("formErrors")}</p>;
  }
  return null;
}

function Hidden({ shown, id }: { shown: ShownForm<unknown>; id?: string }) {
  return (
    <>
      {id && <input type="hidden" name="id" value={id} />}
      <input type="hidden" name="version" value={shown.versionstamp ?? ""} />
    </>
  );
}

export function PartnerFields(
  { shown, data }: { shown: ShownForm<Partner>; data: TourismData },
) {
  const { current, typed, errors } = shown;
  const value = (field: string, stored: string) => typed?.[field] ?? stored;
  return (
    <form method="post" action="/panel/premios/comercio" class="console-form">
      <Banner shown={shown} />
      <Hidden shown={shown} id={current?.id} />
      <Field
        name="proveedor"
        label={tr("field.proveedor")}
        hint={tr("field.proveedorHint")}
        errors={errors}
      >
        {(props) => (
          <select {...props}>
            <option value="">{tr("field.proveedorNone")}</option>
            {data.providers.map((provider) => (
              <option
                value={provider.slug}
                selected={value("proveedor", current?.providerSlug ?? "") ===
                  provider.slug}
              >
                {provider.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field name="nombre" label={tr("field.nombre")} errors={errors}>
        {(props) => (
          <input {...props} value={value("nombre", current?.name ?? "")} />
        )}
      </Field>
      <Field name="direccion" label={tr("field.direccion")} errors={errors}>
        {(props) => (
          <input
            {...props}
            value={value("direccion", current?.address ?? "")}
          />
        )}
      </Field>
      <Field name="horario" label={tr("field.horario")} errors={errors}>
        {(props) => (
          <input {...props} value={value("horario", current?.hours ?? "")} />
        )}
      </Field>
      <Field name="lat" label={tr("field.lat")} errors={errors}>
        {(props) => (
          <input
            {...props}
            inputMode="decimal"
            value={value("lat", current?.location?.lat.toString() ?? "")}
          />
        )}
      </Field>
      <Field name="lng" label={tr("field.lng")} errors={errors}>
        {(props) => (
          <input
            {...props}
            inputMode="decimal"
            value={value("lng", current?.location?.lng.toString() ?? "")}
          />
        )}
      </Field>
      <Check
        name="activo"
        label={tr("field.activo")}
        checked={typed ? typed.activo === "on" : current?.active ?? true}
      />
      <p class="button-row">
        <button class="button" type="submit">{tr("save")}</button>
        <a href="/panel/premios">{tr("cancel")}</a>
      </p>
    </form>
  );
}

export function PrizeFields(
  { shown, data, partners }: {
    shown: ShownForm<Prize>;
    data: TourismData;
    partners: readonly Partner[];
  },
) {
  const { current, typed, errors } = shown;
  const value = (field: string, stored: string) => typed?.[field] ?? stored;
  const requirement = current?.requirement;
  const kind = value("requisito", requirement?.kind ?? "stamps");
  const chosen = new Set(
    typed
      ? data.attractions.filter((a) => typed[`atractivo_${a.slug}`] === "on")
        .map((a) => a.slug)
      : requirement?.kind === "attractions"
      ? requirement.slugs
      : [],
  );
  const untranslated = (field: string, stored: string) =>
    value(field, stored).trim() === "" && (
      <span class="badge badge--warn">{tr("missingTranslation")}</span>
    );
  return (
    <form method="post" action="/panel/premios/premio" class="console-form">
      <Banner shown={shown} />
      <Hidden shown={shown} id={current?.id} />
      <Field name="comercio" label={tr("field.comercio")} errors={errors}>
        {(props) => (
          <select {...props}>
            {partners.map((partner) => (
              <option
                value={partner.id}
                selected={value("comercio", current?.partnerId ?? "") ===
                  partner.id}
              >
                {partner.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="side-by-side">
        <Field name="nombre_es" label={tr("field.nombre_es")} errors={errors}>
          {(props) => (
            <input
              {...props}
              required
              value={value("nombre_es", current?.name.es ?? "")}
            />
          )}
        </Field>
        <Field name="nombre_en" label={tr("field.nombre_en")} errors={errors}>
          {(props) => (
            <>
              <input
                {...props}
                lang="en"
                value={value("nombre_en", current?.name.en ?? "")}
              />
              {untranslated("nombre_en", current?.name.en ?? "")}
            </>
          )}
        </Field>
        <Field
          name="descripcion_es"
          label={tr("field.descripcion_es")}
          errors={errors}
        >
          {(props) => (
            <textarea {...props} rows={3}>
              {value("descripcion_es", current?.description.es ?? "")}
            </textarea>
          )}
        </Field>
        <Field
          name="descripcion_en"
          label={tr("field.descripcion_en")}
          errors={errors}
        >
          {(props) => (
            <>
              <textarea {...props} rows={3} lang="en">
                {value("descripcion_en", current?.description.en ?? "")}
              </textarea>
              {untranslated("descripcion_en", current?.description.en ?? "")}
            </>
          )}
        </Field>
      </div>
      <fieldset class="prize-requirement">
        <legend>{tr("field.requisito")}</legend>
        {(["stamps", "badge", "route", "attractions"] as const).map((each) => (
          <label class="choice">
            <input
              type="radio"
              name="requisito"
              value={each}
              checked={kind === each}
            />{" "}
            {tr(`field.requisito.${each}`)}
          </label>
        ))}
        {errors?.requisito && (
          <span class="field-error">{errors.requisito.join(" ")}</span>
        )}
        <Field name="sellos" label={tr("field.sellos")} errors={errors}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={data.attractions.length}
              value={value(
                "sellos",
                requirement?.kind === "stamps"
                  ? String(requirement.count)
                  : "5",
              )}
            />
          )}
        </Field>
        <Field name="insignia" label={tr("field.insignia")} errors={errors}>
          {(props) => (
            <select {...props}>
              {BADGES.map((badge) => (
                <option
                  value={badge.id}
                  selected={value(
                    "insignia",
                    requirement?.kind === "badge" ? requirement.badgeId : "",
                  ) === badge.id}
                >
                  {getBadgeName(LANG, badge)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field name="ruta" label={tr("field.ruta")} errors={errors}>
          {(props) => (
            <select {...props}>
              {data.routes.map((route) => (
                <option
                  value={route.slug}
                  selected={value(
                    "ruta",
                    requirement?.kind === "route" ? requirement.routeSlug : "",
                  ) === route.slug}
                >
                  {route.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset data-field="atractivos">
          <legend>{tr("field.atractivos")}</legend>
          {data.attractions.map((attraction) => (
            <label class="choice">
              <input
                type="checkbox"
                name={`atractivo_${attraction.slug}`}
                checked={chosen.has(attraction.slug)}
              />{" "}
              {attraction.name}
            </label>
          ))}
          {errors?.atractivos && (
            <span class="field-error">{errors.atractivos.join(" ")}</span>
          )}
        </fieldset>
      </fieldset>
      <Field name="desde" label={tr("field.desde")} errors={errors}>
        {(props) => (
          <input
            {...props}
            type="date"
            value={value("desde", current?.validFrom ?? "")}
          />
        )}
      </Field>
      <Field name="hasta" label={tr("field.hasta")} errors={errors}>
        {(props) => (
          <input
            {...props}
            type="date"
            value={value("hasta", current?.validUntil ?? "")}
          />
        )}
      </Field>
      <Field name="unidades" label={tr("field.unidades")} errors={errors}>
        {(props) => (
          <input
            {...props}
            type="number"
            min={1}
            value={value("unidades", current ? String(current.stockTotal) : "")}
          />
        )}
      </Field>
      <Field name="per_day" label={tr("field.per_day")} errors={errors}>
        {(props) => (
          <input
            {...props}
            type="number"
            min={1}
            value={value(
              "per_day",
              current?.stockPerDay == null ? "" : String(current.stockPerDay),
            )}
          />
        )}
      </Field>
      <Field
        name="per_passport"
        label={tr("field.per_passport")}
        errors={errors}
      >
        {(props) => (
          <input
            {...props}
            type="number"
            min={1}
            value={value(
              "per_passport",
              current ? String(current.perPassport) : "1",
            )}
          />
        )}
      </Field>
      <Check
        name="solo_cuentas"
        label={tr("field.solo_cuentas")}
        checked={typed
          ? typed.solo_cuentas === "on"
          : current?.requiresAccount ?? false}
      />
      <Check
        name="activo"
        label={tr("field.activo_premio")}
        checked={typed
          ? typed.activo === "on"
          : (current?.status ?? "active") === "active"}
      />
      <p class="button-row">
        <button class="button" type="submit">{tr("save")}</button>
        <a href="/panel/premios">{tr("cancel")}</a>
      </p>
    </form>
  );
}
