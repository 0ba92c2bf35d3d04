import { Icon } from "./Icon.tsx";

const TEXT = {
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

/** The friendly error pages (404, 500): what happened and where to go next. */
export function ErrorPage({ status }: { status: 404 | 500 }) {
  const text = TEXT[status];
  return (
    <section class="container error-page" aria-labelledby="error-title">
      <p class="error-page__code" aria-hidden="true">{status}</p>
      <h1 id="error-title">{text.title}</h1>
      <p class="lead">{text.body}</p>
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
    </section>
  );
}
