import type { Context } from "hono";
import type { ContentVersion, PublishOutcome } from "@/lib/content/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

/** The key in the editor's URLs of a part that is one object (the branding, the weather). */
export const OBJECT_URL_KEY = "-";

/** The content pages' words (`locales/<lang>/panel_content.json`); the console is Spanish. */
export function trContent(
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(DEFAULT_LANG, `panel_content.${key}`, values);
}

/** Who or what published a version, in words. */
export function describeVersionSource(version: ContentVersion): string {
  switch (version.source) {
    case "seed":
      return trContent("source.seed");
    case "import":
      return trContent("source.import");
    default:
      return version.by;
  }
}

/** The history: newest first, what changed, a link to each version's diff. */
export function VersionTable(
  { versions, current, timeZone }: {
    versions: ContentVersion[];
    current?: string;
    timeZone: string;
  },
) {
  return (
    <div class="table-scroll">
      <table class="panel-table">
        <caption class="sr-only">{trContent("historyCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{trContent("colWhen")}</th>
            <th scope="col">{trContent("colWho")}</th>
            <th scope="col">{trContent("colWhat")}</th>
            <th scope="col">{trContent("colVersion")}</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version) => (
            <tr key={version.id}>
              <td>
                <time dateTime={version.publishedAt}>
                  {formatDateTime(version.publishedAt, timeZone)}
                </time>
              </td>
              <td>{describeVersionSource(version)}</td>
              <td>
                {version.source === "revert" && <p>{trContent("reverted")}</p>}
                {version.changes.length === 0
                  ? (version.source === "seed"
                    ? trContent("firstVersion")
                    : "—")
                  : (
                    <ul class="plain-list">
                      {version.changes.slice(0, 5).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                      {version.changes.length > 5 && (
                        <li>
                          {trContent("more", {
                            count: version.changes.length - 5,
                          })}
                        </li>
                      )}
                    </ul>
                  )}
              </td>
              <td>
                <a
                  href={`/panel/contenido/versiones/${
                    encodeURIComponent(version.id)
                  }`}
                >
                  {version.digest.slice(0, 12)}
                </a>
                {version.id === current && (
                  <>
                    {" "}
                    <strong>{trContent("current")}</strong>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** After a publish or a restore: the page of the version now published (the same one when nothing changed). */
export function redirectToVersion(
  c: Context,
  outcome: PublishOutcome,
): Response {
  const { id } = "published" in outcome ? outcome.published : outcome.unchanged;
  return c.redirect(
    `/panel/contenido/versiones/${encodeURIComponent(id)}`,
    303,
  );
}

/** What refused a publish, one line each, announced. */
export function ProblemList({ problems }: { problems?: string[] }) {
  if (!problems || problems.length === 0) return null;
  return (
    <div class="form-error" role="alert">
      <ul>
        {problems.map((problem) => <li key={problem}>{problem}</li>)}
      </ul>
    </div>
  );
}
