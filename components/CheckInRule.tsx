import {
  acceptsPosition,
  type AttractionCheckInView,
  CHECK_IN_METHOD_LABELS,
  CHECK_IN_METHODS,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
} from "@/lib/check_in/mod.ts";

/**
 * How visits are checked in at an attraction, on its console page: the
 * method and radius in force and where they come from; for admins, the
 * form that changes them (`POST <action>`), with the last problem beside
 * it. Viewers read it only.
 */
export function CheckInRuleSection(
  { rule, action, canEdit, problem, saved, setAtText }: {
    rule: AttractionCheckInView;
    action: string;
    canEdit: boolean;
    /** Why the last change was refused (nothing was saved). */
    problem?: string;
    /** The rule was just saved. */
    saved?: boolean;
    /** When an admin set it, in words; absent: the catalogue's default. */
    setAtText?: string;
  },
) {
  return (
    <section
      class="chart attraction-report__check-in"
      aria-labelledby="registro"
    >
      <h2 id="registro">Cómo se registra la visita</h2>
      {saved && (
        <p class="notice notice--ok" role="status">
          Listo: desde ahora la visita se registra {rule.methodText}.
        </p>
      )}
      <p>
        La visita se registra{" "}
        <strong data-check-in-method={rule.method}>{rule.methodText}</strong>
        {acceptsPosition(rule.method) && (
          <>
            {" "}dentro de <strong>{rule.radiusM} m</strong>{" "}
            del punto del atractivo
          </>
        )}. {setAtText
          ? `Lo cambió una persona administradora el ${setAtText}.`
          : "Es lo que indica el catálogo de atractivos."}
      </p>
      {!acceptsPosition(rule.method) && (
        <p>
          Radio para la ubicación, si la activas: {rule.radiusM} m.
        </p>
      )}
      {problem && <p class="form-error" role="alert">{problem}</p>}
      {canEdit && (
        <form class="dashboard__range" method="post" action={action}>
          <fieldset>
            <legend>Cambiar cómo se registra</legend>
            <label>
              Forma de registro
              <select name="metodo">
                {CHECK_IN_METHODS.map((method) => (
                  <option
                    key={method}
                    value={method}
                    selected={method === rule.method}
                  >
                    {CHECK_IN_METHOD_LABELS[method]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Radio en metros ({MIN_CHECK_IN_RADIUS_M} a{" "}
              {MAX_CHECK_IN_RADIUS_M})
              <input
                type="number"
                name="radio"
                inputMode="numeric"
                min={MIN_CHECK_IN_RADIUS_M}
                max={MAX_CHECK_IN_RADIUS_M}
                step={1}
                value={String(rule.radiusM)}
                required
              />
            </label>
            <button class="button" type="submit">Guardar</button>
          </fieldset>
          <p class="chart__note">
            Con la ubicación, el turista toca «Estoy aquí» y cuenta si está
            dentro del radio. Con solo ubicación, el código del cartel ya no
            registra la visita aquí. El cambio aplica al instante y queda en la
            auditoría.
          </p>
        </form>
      )}
    </section>
  );
}
