import { Icon } from "./Icon.tsx";

const TEXT = {
  403: {
    title: "No tienes permiso para esto",
    body:
      "Tu cuenta no puede hacer esta acción. Si crees que es un error, habla con quien administra el portal.",
  },
  404: {
    title: "No encontramos esta página",
    body:
      "Es posible que la dirección tenga un error o que la página haya cambiado de lugar. Si buscabas la ruta de un viajero, revisa que el enlace esté completo.",
  },
  500: {
    title: "Algo salió mal",
    body:
      "Tuvimos un problema al mostrar esta página. Inténtalo de nuevo en unos minutos.",
  },
} as const;

/**
 * The friendly error pages (403, 404, 500): what happened and where to go
 * next. A 403 (only staff meet one) may say why (`title`, `body`) and leads
 * back to the panel.
 */
export function ErrorPage(
  { status, title, body }: {
    status: 403 | 404 | 500;
    title?: string;
    body?: string;
  },
) {
  const text = {
    title: title ?? TEXT[status].title,
    body: body ?? TEXT[status].body,
  };
  return (
    <section class="container error-page" aria-labelledby="error-title">
      <p class="error-page__code" aria-hidden="true">{status}</p>
      <h1 id="error-title">{text.title}</h1>
      <p class="lead">{text.body}</p>
      {status === 403
        ? (
          <ul class="button-row">
            <li>
              <a class="button" href="/panel">
                Volver al panel <Icon name="arrow" />
              </a>
            </li>
          </ul>
        )
        : <ErrorLinks />}
    </section>
  );
}

/** Where a lost visitor can go next. */
function ErrorLinks() {
  return (
    <ul class="button-row">
      <li>
        <a class="button" href="/">
          Ir al inicio <Icon name="arrow" />
        </a>
      </li>
      <li>
        <a class="button button--ghost" href="/turismo/atractivos">
          Ver atractivos
        </a>
      </li>
    </ul>
  );
}
