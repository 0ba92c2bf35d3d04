import type { ComponentChildren } from "preact";
import type { AttractionReportView } from "@/lib/staff/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { ChartGrid, Headline, PeriodForm } from "./Dashboard.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

/** The attraction's guide code and its poster's link (admins only). */
export interface AttractionCodeView {
  code: string;
  posterHref: string;
}

/**
 * The console's page of one attraction, as its presenter
 * (lib/staff/attraction.ts) lays it out: the range form and quick ranges,
 * its figures, its charts with their data, its notes that show (a hidden
 * one is on /panel/notas only), and for admins its guide code and poster.
 */
export function AttractionReport(
  { view, code, children }: {
    view: AttractionReportView;
    code: AttractionCodeView | null;
    /** Sections shown before the code (how visits are checked in). */
    children?: ComponentChildren;
  },
) {
  const action = `/panel/atractivos/${view.slug}`;
  return (
    <div class="dashboard attraction-report">
      <p>
        <a href={`/panel?desde=${view.from}&hasta=${view.to}`}>
          {t(LANG, "panel_figures.ui.backToDashboard")}
        </a>
      </p>
      <PeriodForm action={action} view={view} />

      <section class="headlines" aria-labelledby="cifras">
        <h2 id="cifras">
          {t(LANG, "panel_figures.ui.figures", { period: view.period })}
        </h2>
        <ul class="headlines__list">
          {view.headlines.map((figure) => (
            <Headline key={figure.id} figure={figure} />
          ))}
        </ul>
      </section>

      <ChartGrid charts={view.charts} />

      <section class="chart" aria-labelledby="notas-atractivo">
        <h2 id="notas-atractivo">
          {t(LANG, "panel_figures.ui.touristNotes")}
        </h2>
        {view.notes.length === 0
          ? <p>{t(LANG, "panel_figures.ui.noAttractionNotes")}</p>
          : (
            <ol class="latest-notes">
              {view.notes.map((note) => (
                <li key={note.visitId} data-visit-id={note.visitId}>
                  <p class="latest-notes__meta">
                    {note.rating} ·{" "}
                    <time datetime={note.ratedAt}>{note.ratedAtText}</time>
                  </p>
                  <blockquote>{note.notes}</blockquote>
                </li>
              ))}
            </ol>
          )}
      </section>

      {children}

      {code && (
        <section class="chart attraction-report__code" aria-labelledby="codigo">
          <h2 id="codigo">{t(LANG, "panel_figures.ui.codeTitle")}</h2>
          <p>
            {t(LANG, "panel_figures.ui.currentCode")}{" "}
            <code class="guide-code" data-slug={view.slug}>{code.code}</code>
          </p>
          <p>
            <a
              class="button"
              href={`/panel/carteles.pdf?atractivo=${view.slug}`}
              download
            >
              {t(LANG, "panel_figures.ui.downloadPosterPdf")}
            </a>{" "}
            <a href={code.posterHref} download>
              {t(LANG, "panel_figures.ui.downloadPoster")}
            </a>{" "}
            <a href="/panel/codigos">
              {t(LANG, "panel_figures.ui.replaceCode")}
            </a>
          </p>
          <img
            class="attraction-report__poster"
            src={code.posterHref}
            alt={t(LANG, "panel_figures.ui.posterAlt", { name: view.name })}
            width="240"
            height="339"
          />
        </section>
      )}
    </div>
  );
}
