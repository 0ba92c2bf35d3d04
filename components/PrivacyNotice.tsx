import { Icon } from "@/components/Icon.tsx";
import type { PrivacyContact } from "@/lib/data/tourism_data.ts";
import { formatDate, plural } from "@/lib/format/format.ts";
import type {
  PersonalRecord,
  RecordStore,
  Retention,
  RetentionRule,
} from "@/lib/personal_data/retention.ts";

/** What the privacy notice shows: the data set's contact, the record table and where data goes. */
export interface PrivacyNoticeProps {
  brandName: string;
  municipality: { name: string; state: string; timeZone: string };
  privacy: PrivacyContact;
  /** The data set is a demo: its contact is made up, and the notice says so. */
  demo: boolean;
  /** Every kind of record with personal data (lib/personal_data/retention.ts). */
  records: readonly PersonalRecord[];
  /** The WordPress site's host when tickets go to WordPress; none with the embedded CMS. */
  cmsHost?: string;
  /** The language-model provider's host when `OPENAI_BASE_URL` names it. */
  modelHost?: string;
}

/** The passport page's data controls (download, correct, erase): routes/mi-pasaporte.tsx. */
const PASSPORT_DATA = "/mi-pasaporte#datos-titulo";

/** The page's sections, for its table of contents (and the short notices' links). */
const SECTIONS = [
  { id: "aviso-simplificado", label: "En resumen" },
  { id: "responsable", label: "Responsable" },
  { id: "datos", label: "Qué datos y para qué" },
  { id: "destinos", label: "A dónde van" },
  { id: "conservacion", label: "Cuánto tiempo" },
  { id: "derechos", label: "Tus derechos" },
  { id: "fundamento", label: "Fundamento y cambios" },
];

const UNITS: Record<
  Extract<Retention, { kind: "period" }>["unit"],
  [string, string]
> = {
  seconds: ["segundo", "segundos"],
  minutes: ["minuto", "minutos"],
  hours: ["hora", "horas"],
  days: ["día", "días"],
  months: ["mes", "meses"],
};

const FROM: Record<Extract<Retention, { kind: "period" }>["from"], string> = {
  created: "desde que se crea",
  last_use: "sin usarse",
  last_request: "desde la última actividad",
  last_hit: "desde el último intento",
  last_question: "desde la última vez que se preguntó",
  finished: "desde que termina el borrado",
};

const APPLIES_TO: Record<NonNullable<RetentionRule["appliesTo"]>, string> = {
  guest: "Pasaporte de invitado",
  account: "Pasaporte con cuenta",
  no_passport: "Boleto sin pasaporte",
};

/** A period as a tourist reads it: `24 meses sin usarse`, `365 días desde que se crea`. */
function describeRetention(retention: Retention, store: RecordStore): string {
  switch (retention.kind) {
    case "period": {
      const [one, many] = UNITS[retention.unit];
      // 176 hours reads better with its days beside it.
      const days = retention.unit === "hours" && retention.amount >= 48
        ? ` (unos ${Math.round(retention.amount / 24)} días)`
        : "";
      return `${plural(retention.amount, one, many)}${days} ${
        FROM[retention.from]
      }`;
    }
    case "until_erased":
      return "Hasta que lo borres o pidas que lo borremos";
    case "not_kept":
      return store === "model_provider"
        ? "El portal no lo guarda; el proveedor lo procesa según sus propias condiciones"
        : store === "stdout"
        ? "El portal no lo guarda: lo recibe el servidor que lo aloja, que lo conserva según su configuración"
        : "No se guarda";
  }
}

/**
 * The integral privacy notice (aviso de privacidad integral) with its
 * simplified summary on top: who is responsible, what is collected and
 * why, where it goes, how long each record lives (from the record table,
 * never retyped) and how to exercise each right.
 */
export function PrivacyNotice(props: PrivacyNoticeProps) {
  const { privacy, municipality, demo, records, cmsHost, modelHost } = props;
  const unit = privacy.transparencyUnit;
  const updated = formatDate(privacy.updated, municipality.timeZone);
  // "al proveedor ...": who the chat's messages go to, named by host when known.
  const provider = modelHost
    ? `proveedor del modelo de lenguaje (${modelHost})`
    : "proveedor del modelo de lenguaje";
  const storeLabel = (store: RecordStore) =>
    ({
      kv: "Base de datos del portal",
      cms: cmsHost
        ? `Gestor de contenidos del Ayuntamiento (WordPress, ${cmsHost})`
        : "Gestor de contenidos del portal",
      model_provider: modelHost
        ? `Proveedor del modelo de lenguaje (${modelHost})`
        : "Proveedor del modelo de lenguaje",
      memory: "Memoria temporal del servidor (se pierde al reiniciarlo)",
      stdout: "Registro técnico del servidor",
    })[store];
  return (
    <>
      <section class="page-head page-head--info">
        <div class="container">
          <nav aria-label="Ruta de navegación" class="breadcrumbs">
            <ol>
              <li>
                <a href="/">Inicio</a>
              </li>
              <li aria-current="page">Aviso de privacidad</li>
            </ol>
          </nav>
          <h1>Aviso de privacidad</h1>
          <p class="lead">
            Cómo cuida el Ayuntamiento de {municipality.name}{" "}
            los datos personales que recaba{" "}
            {props.brandName}, y cómo puedes consultarlos, corregirlos o
            borrarlos cuando quieras.
          </p>
          <p class="privacy-updated">
            Última actualización:{" "}
            <time dateTime={privacy.updated}>
              {updated}
            </time>
          </p>
          {demo && (
            <p class="demo-mark" id="datos-demostracion">
              <Icon name="info" /> <strong>Datos de demostración.</strong>{" "}
              El responsable, el domicilio y los datos de contacto de este aviso
              son ilustrativos: no envíes solicitudes reales a ellos.
            </p>
          )}
        </div>
      </section>
      <div class="container info-toc">
        <nav class="filters" aria-label="En esta página">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <div class="container privacy">
        <section
          id="aviso-simplificado"
          class="tips"
          aria-labelledby="aviso-simplificado-titulo"
        >
          <h2 id="aviso-simplificado-titulo">
            Aviso de privacidad simplificado
          </h2>
          <p>
            La {privacy.office}{" "}
            es responsable de los datos personales que nos das en este portal.
            Los usamos para emitir tu boleto turístico y tu página de ruta,
            llevar tu pasaporte de visitas (con tus calificaciones, notas e
            insignias), responder tus preguntas en el asistente turístico y dar
            acceso al panel al personal de turismo. No los vendemos ni los
            usamos para publicidad. Fuera del portal solo van al gestor de
            contenidos del Ayuntamiento y, lo que escribes al asistente (con tu
            ubicación, si decides compartirla), al {provider}{" "}
            que genera las respuestas; a nadie más, salvo cuando una ley lo
            exige.
          </p>
          <p>
            Puedes descargar, corregir o borrar tus datos en{" "}
            <a href={PASSPORT_DATA}>Mi pasaporte</a>, y oponerte a su uso ante
            la{" "}
            <a href="#responsable">Unidad de Transparencia</a>. Abajo está el
            aviso de privacidad integral.
          </p>
        </section>

        <section id="responsable" aria-labelledby="responsable-titulo">
          <h2 id="responsable-titulo">¿Quién es responsable de tus datos?</h2>
          <p>
            El Municipio de {municipality.name},{" "}
            {municipality.state}, a través de la{" "}
            {privacy.office}, con domicilio en {privacy.address}.
          </p>
          <h3>{unit.name}</h3>
          <p>
            Atiende tus dudas y solicitudes sobre tus datos personales:
          </p>
          <ul class="privacy-contact">
            <li>
              <strong>Domicilio:</strong> {unit.address}
            </li>
            <li>
              <strong>Correo electrónico:</strong>{" "}
              <a href={`mailto:${unit.email}`}>{unit.email}</a>
            </li>
            <li>
              <strong>Teléfono:</strong>{" "}
              <a href={`tel:${unit.phone.replace(/[^\d+]/g, "")}`}>
                {unit.phone}
              </a>
            </li>
            {unit.hours && (
              <li>
                <strong>Horario:</strong> {unit.hours}
              </li>
            )}
          </ul>
        </section>

        <section id="datos" aria-labelledby="datos-titulo">
          <h2 id="datos-titulo">¿Qué datos recabamos y para qué?</h2>
          <p>
            Puedes ver los atractivos, las rutas, los servicios y la información
            práctica sin darnos ningún dato. Solo recabamos lo que se describe
            aquí, cuando usas la función correspondiente. No te pedimos datos
            sensibles (de salud, origen, creencias u otros): por favor no los
            escribas en tus notas ni en el asistente.
          </p>
          <h3 id="boleto">Boleto turístico</h3>
          <p>
            Al pedir tu boleto nos das tu nombre, tu correo electrónico y, si
            quieres, tu teléfono. Los usamos para emitir tu boleto, para crear
            tu página de ruta, que muestra tu nombre, tus visitas y tus
            insignias a quien tenga el enlace, y para encontrar tu boleto si nos
            escribes. No te enviamos publicidad.
          </p>
          <h3 id="pasaporte">Pasaporte de visitas y su cookie</h3>
          <p>
            Si no has iniciado sesión, al registrar tu primer código en un
            atractivo el portal abre un pasaporte de invitado y guarda en tu
            navegador una cookie propia que solo contiene un número al azar para
            reconocerlo. Es necesaria para que el pasaporte funcione y no sirve
            para seguirte en otros sitios. En tu pasaporte guardamos qué
            atractivos visitaste y cuándo, tus calificaciones, tus notas (que
            aparecen en tu página de ruta y que el personal de turismo puede
            leer y ocultar) y tus insignias. Si entras con una cuenta, guardamos
            también con qué proveedor entraste y tu identificador en él, nunca
            tu contraseña.
          </p>
          <h3 id="asistente">Asistente turístico y ubicación</h3>
          <p>
            Tus preguntas y las últimas respuestas de la conversación se envían
            al {provider}{" "}
            para generar la respuesta. Tu ubicación se envía solo si activas
            «Usar mi ubicación», y únicamente mientras siga activada. La
            conversación se queda en la pestaña de tu navegador. Si el asistente
            no sabe responder, guardamos el texto de la pregunta, sin nada que
            diga quién la hizo y con correos y teléfonos ocultos, para que el
            personal complete la información del portal.
          </p>
          <h3 id="personal">Personal de turismo</h3>
          <p>
            Para entrar al panel del personal guardamos el correo electrónico y
            el rol de cada persona autorizada, y una bitácora de lo que hace en
            el panel, por seguridad y para rendir cuentas.
          </p>
          <h3 id="cookies">Cookies y registros técnicos</h3>
          <p>
            El portal usa solo cookies propias y necesarias: la de tu pasaporte
            o tu sesión y, para el personal, la del panel. No usa cookies de
            terceros, herramientas de analítica ni rastreadores publicitarios.
            Para protegerse del abuso, el servidor lleva por un tiempo breve la
            cuenta de solicitudes de cada dirección IP.
          </p>
        </section>

        <section id="destinos" aria-labelledby="destinos-titulo">
          <h2 id="destinos-titulo">¿A dónde van tus datos?</h2>
          <ul class="plain-list">
            <li>
              <strong>A la base de datos del portal</strong>, a cargo del
              Ayuntamiento: todo lo descrito arriba.
            </li>
            <li>
              <strong>Al gestor de contenidos del Ayuntamiento</strong>
              {cmsHost ? ` (WordPress, en ${cmsHost})` : ""}: tu boleto (nombre,
              correo, teléfono y código) se registra también ahí.
            </li>
            <li>
              <strong>Al {provider}</strong>: tus mensajes al asistente y, solo
              si la compartes, tu ubicación salen del portal para que el modelo
              genere la respuesta. El portal no los guarda, pero el proveedor
              los procesa según sus propias condiciones; por eso te pedimos no
              escribir datos personales en el asistente.
            </li>
            <li>
              <strong>A nadie más.</strong>{" "}
              No vendemos ni rentamos tus datos ni los transferimos a otras
              autoridades o a particulares, salvo en los casos en que la ley lo
              permite sin tu consentimiento, como un requerimiento fundado y
              motivado de una autoridad competente.
            </li>
          </ul>
        </section>

        <section id="conservacion" aria-labelledby="conservacion-titulo">
          <h2 id="conservacion-titulo">¿Cuánto tiempo los guardamos?</h2>
          <p>
            Cada registro tiene su plazo; al cumplirse, el portal lo borra por
            sí mismo. Tu pasaporte y todo lo que contiene se borran en cuanto lo
            pides. Los totales de visitas de cada atractivo se conservan, sin
            nada que permita identificarte.
          </p>
          <table class="retention-table">
            <caption>Registros con datos personales y su plazo</caption>
            <thead>
              <tr>
                <th scope="col">Registro</th>
                <th scope="col">Qué contiene</th>
                <th scope="col">Para qué</th>
                <th scope="col">Dónde</th>
                <th scope="col">Cuánto tiempo</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={record.id} id={`registro-${record.id}`}>
                  <th scope="row">{record.name.es}</th>
                  <td data-label="Qué contiene">{record.holds.es}</td>
                  <td data-label="Para qué">{record.purpose.es}</td>
                  <td data-label="Dónde">{storeLabel(record.store)}</td>
                  <td data-label="Cuánto tiempo">
                    <ul class="retention-rules">
                      {record.retention.map((rule, i) => (
                        <li key={i}>
                          {rule.appliesTo && (
                            <strong>{APPLIES_TO[rule.appliesTo]}:</strong>
                          )} {describeRetention(rule.retention, record.store)}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section id="derechos" aria-labelledby="derechos-titulo">
          <h2 id="derechos-titulo">Tus derechos y cómo ejercerlos</h2>
          <p>
            Tienes derecho a saber qué datos tenemos de ti (acceso), a
            corregirlos (rectificación), a que los borremos (cancelación), a
            oponerte a su uso (oposición) —los llamados derechos ARCO— y a
            llevártelos en un archivo que otro sistema pueda leer
            (portabilidad). Ejercerlos es gratuito.
          </p>
          <dl class="privacy-rights">
            <dt id="acceso">Acceso y portabilidad</dt>
            <dd>
              En{" "}
              <a href={PASSPORT_DATA}>Mi pasaporte</a>, el botón «Descargar mis
              datos» te da un archivo JSON con todo lo que el portal guarda de
              ti: pasaporte, visitas, calificaciones, notas, insignias, boleto y
              sesiones.
            </dd>
            <dt id="rectificacion">Rectificación</dt>
            <dd>
              En <a href={PASSPORT_DATA}>Mi pasaporte</a>{" "}
              puedes cambiar el nombre que aparece en tu página de ruta y en tu
              tarjeta para compartir. Para corregir cualquier otro dato, escribe
              a la Unidad de Transparencia.
            </dd>
            <dt id="cancelacion">Cancelación</dt>
            <dd>
              En{" "}
              <a href={PASSPORT_DATA}>Mi pasaporte</a>, «Borrar mi pasaporte y
              mis datos» borra tu pasaporte, tus visitas, calificaciones, notas
              e insignias, tus sesiones, tu boleto y su registro en el gestor de
              contenidos. Te pedimos confirmarlo, porque no se puede deshacer.
            </dd>
            <dt id="oposicion">Oposición</dt>
            <dd>
              Puedes dejar de usar el asistente o apagar tu ubicación cuando
              quieras. Para oponerte a cualquier otro uso de tus datos, escribe
              a la Unidad de Transparencia.
            </dd>
          </dl>
          <h3 id="solicitudes">Solicitudes por escrito</h3>
          <p>
            Si ya no puedes entrar a tu pasaporte (por ejemplo, borraste las
            cookies o cambiaste de teléfono) o prefieres hacerlo por escrito,
            envía tu solicitud a{" "}
            <a href={`mailto:${unit.email}`}>{unit.email}</a> o preséntala en
            {" "}
            {unit.address}. Indica tu nombre, el correo con el que pediste tu
            boleto, qué derecho quieres ejercer y, si lo tienes, tu código de
            boleto; la Unidad puede pedirte que acredites tu identidad. El
            personal de turismo atiende tu solicitud desde el panel del portal y
            te responde en los plazos que fija la ley. Si no estás conforme con
            la respuesta, puedes presentar un recurso de revisión ante el
            organismo garante de protección de datos personales.
          </p>
        </section>

        <section id="fundamento" aria-labelledby="fundamento-titulo">
          <h2 id="fundamento-titulo">
            Fundamento legal y cambios a este aviso
          </h2>
          <p>
            Tratamos tus datos con tu consentimiento, que das al usar cada
            función opcional (el boleto, el pasaporte, el asistente y tu
            ubicación), y con fundamento en:
          </p>
          <ul class="plain-list">
            {privacy.laws.map((law) => <li key={law}>{law}.</li>)}
          </ul>
          <p>
            Publicaremos cualquier cambio a este aviso en esta misma página, con
            su fecha de actualización.
          </p>
        </section>
      </div>
    </>
  );
}
