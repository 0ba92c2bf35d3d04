import { ProblemList, trContent as tr } from "./_content.tsx";

/**
 * The question before an item leaves the portal: what goes, that the
 * history keeps it, and the button that publishes the data set without
 * it. `base`: the published version the page showed, so a publish made
 * meanwhile refuses the removal instead of undoing it.
 */
export function RemoveItemConfirmation(
  { action, formUrl, name, base, problems }: {
    action: string;
    formUrl: string;
    name: string;
    base: string;
    problems?: string[];
  },
) {
  return (
    <section aria-labelledby="quitar-titulo">
      <h2 id="quitar-titulo">{tr("remove.question", { name })}</h2>
      <ProblemList problems={problems} />
      <p>{tr("remove.lead")}</p>
      <form method="post" action={action}>
        <input type="hidden" name="base" value={base} />
        <p class="button-row">
          <button class="button button--danger" type="submit">
            {tr("remove.confirm")}
          </button>
          <a class="button button--ghost" href={formUrl}>
            {tr("remove.cancel")}
          </a>
        </p>
      </form>
    </section>
  );
}
