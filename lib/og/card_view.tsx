/**
 * The share card's layout: the design, as JSX for satori.
 *
 * This is the project's usual Preact JSX. Satori reads only `type` and
 * `props` of each node (and renders function components itself), so
 * Preact's VNodes go to it as they are: they give the same SVG as plain
 * `{type, props}` objects. Every box sets `display`: satori, like a browser,
 * makes a div a block by default.
 */
import type { ComponentChildren } from "preact";
import { FAMILY, FAMILY_EXT } from "./fonts.ts";
import type { Palette } from "./palette.ts";
import { isRtl, pickNameSize } from "./text.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Logo box size in px; the logo is rasterised to fit it exactly. */
export const LOGO_SIZE = 68;

const PAD_X = 64;
const RIGHT_COL = 312;
const GAP = 48;
/** Width available to the tourist's name. */
const NAME_WIDTH = CARD_WIDTH - PAD_X * 2 - RIGHT_COL - GAP;
/** Inner width of the badges box (see the flex ratios in Stats). */
const BADGE_BOX_INNER = 330;
/** Width of one badge chip plus its gap. */
const CHIP_STEP = 54;

/** A raster image for an `<img>`, at its display size. */
export interface Logo {
  src: string;
  width: number;
  height: number;
}

/** The card's content, ready to lay out: every value here is safe to draw. */
export interface CardModel {
  name: string;
  visits: number;
  total: number;
  percent: number;
  badgeIcons: string[];
  badgeCount: number;
  brandName: string;
  tagline: string;
  logo: Logo | null;
  colors: Palette;
  /** The `Intl` locale of the card's language, for its numbers. */
  locale: string;
  /** The card's words in its language (`locales/<lang>/card.json`). */
  labels: CardLabels;
}

/** The route card's words, said in the card's language by card_model.ts. */
export interface CardLabels {
  pill: string;
  traveler: string;
  placesVisited: string;
  /** "de 17 lugares" */
  ofTotal: string;
  /** "Insignia ganada" / "Insignias ganadas" */
  badgesEarned: string;
  firstBadge: string;
  progress: string;
  /** "Tu ruta está por comenzar", "¡Ruta completada!" or "3 lugares por descubrir". */
  remaining: string;
  cta: string;
  ctaNote: string;
}

interface ModelProps {
  model: CardModel;
}

/** The whole 1200x630 card for `model`: what render_card.ts gives satori. */
export function CardView({ model: m }: ModelProps) {
  return (
    <CardFrame
      header={{
        colors: m.colors,
        logo: m.logo,
        brandName: m.brandName,
        note: m.tagline,
        pill: m.labels.pill,
      }}
      paddingBottom={40}
      footer={
        <CardFooter
          colors={m.colors}
          cta={m.labels.cta}
          ctaNote={m.labels.ctaNote}
        />
      }
    >
      <div style={{ display: "flex", flex: 1, marginTop: 34, minHeight: 0 }}>
        <div
          style={{
            display: "flex",
            flexDirection: "column",
            width: NAME_WIDTH,
            marginRight: GAP,
          }}
        >
          <div
            style={{
              display: "flex",
              flex: 1,
              flexDirection: "column",
              justifyContent: "center",
              paddingBottom: 12,
            }}
          >
            <NameBlock model={m} />
          </div>
          <Stats model={m} />
        </div>
        <ProgressPanel model={m} />
      </div>
    </CardFrame>
  );
}

/**
 * The frame every card shares: the page colours, the three-colour strip on
 * top, the header band, the card's own content and its footer band.
 */
export function CardFrame(
  { header, paddingBottom, footer, children }: {
    header: CardHeaderProps;
    /** Space between the content and the footer band, in px. */
    paddingBottom: number;
    footer: ComponentChildren;
    children: ComponentChildren;
  },
) {
  const c = header.colors;
  return (
    <div
      style={{
        display: "flex",
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        flexDirection: "column",
        backgroundColor: c.background,
        color: c.text,
        fontFamily: `${FAMILY}, "${FAMILY_EXT}"`,
      }}
    >
      <div style={{ display: "flex", width: "100%", height: 10 }}>
        <div style={{ display: "flex", flex: 3, backgroundColor: c.primary }} />
        <div style={{ display: "flex", flex: 1, backgroundColor: c.accent }} />
        <div
          style={{ display: "flex", flex: 1, backgroundColor: c.secondary }}
        />
      </div>
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          flex: 1,
          padding: `36px ${PAD_X}px ${paddingBottom}px`,
          minHeight: 0,
        }}
      >
        <CardHeader {...header} />
        {children}
      </div>
      {footer}
    </div>
  );
}

/** The style of a big figure in a stat box (visits, badges, percent). */
function statNumber(color: string) {
  return {
    display: "block",
    fontSize: 44,
    fontWeight: 700,
    color,
    lineHeight: 1,
  } as const;
}

export function Label(
  { colors, children }: { colors: Palette; children: string },
) {
  return (
    <div
      style={{
        display: "block",
        fontSize: 15,
        fontWeight: 700,
        letterSpacing: 2,
        color: colors.muted,
        textTransform: "uppercase",
      }}
    >
      {children}
    </div>
  );
}

/** What the header band of every card shows. */
interface CardHeaderProps {
  colors: Palette;
  logo: Logo | null;
  brandName: string;
  /** A line under the brand name (the tagline), if any. */
  note: string;
  /** The pill on the right (shown upper-case), if any. */
  pill: string;
}

/** The header band shared by the route's card and the pages' cards. */
export function CardHeader(
  { colors: c, logo, brandName, note, pill }: CardHeaderProps,
) {
  return (
    <div style={{ display: "flex", alignItems: "center", height: LOGO_SIZE }}>
      {logo
        ? (
          <div
            style={{
              display: "flex",
              width: LOGO_SIZE,
              height: LOGO_SIZE,
              marginRight: 20,
              alignItems: "center",
              justifyContent: "center",
            }}
          >
            <img
              src={logo.src}
              width={logo.width}
              height={logo.height}
              style={{ width: logo.width, height: logo.height }}
            />
          </div>
        )
        : null}
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          justifyContent: "center",
          flex: 1,
          minWidth: 0,
        }}
      >
        <div
          style={{
            display: "block",
            fontSize: 28,
            fontWeight: 700,
            color: c.primaryInk,
            lineHeight: 1.15,
            lineClamp: 1,
            textOverflow: "ellipsis",
            whiteSpace: "nowrap",
          }}
        >
          {brandName}
        </div>
        {note
          ? (
            <div
              style={{
                display: "block",
                fontSize: 19,
                color: c.muted,
                lineHeight: 1.3,
                marginTop: 4,
                whiteSpace: "nowrap",
                textOverflow: "ellipsis",
              }}
            >
              {note}
            </div>
          )
          : null}
      </div>
      {pill
        ? (
          <div
            style={{
              display: "flex",
              alignItems: "center",
              padding: "10px 18px",
              borderRadius: 999,
              backgroundColor: c.primaryTint,
              color: c.primaryInk,
              marginLeft: 24,
            }}
          >
            <div
              style={{
                display: "block",
                fontSize: 15,
                fontWeight: 700,
                letterSpacing: 2,
                textTransform: "uppercase",
              }}
            >
              {pill}
            </div>
          </div>
        )
        : null}
    </div>
  );
}

function NameBlock({ model: m }: ModelProps) {
  // Always allow (and clamp to) two lines: the size pick is an estimate.
  const { fontSize } = pickNameSize(m.name, NAME_WIDTH);
  const lines = 2;
  const lineHeight = Math.round(fontSize * 1.12);
  const rtl = isRtl(m.name);
  return (
    <div
      style={{ display: "flex", flexDirection: "column", width: NAME_WIDTH }}
    >
      <Label colors={m.colors}>{m.labels.traveler}</Label>
      <div
        lang={rtl ? "ar" : undefined}
        style={{
          display: "block",
          marginTop: 10,
          fontSize,
          fontWeight: 700,
          lineHeight: `${lineHeight}px`,
          letterSpacing: fontSize >= 60 ? -1.5 : -1,
          color: m.colors.text,
          width: NAME_WIDTH,
          maxHeight: lineHeight * lines,
          overflowWrap: "anywhere",
          wordBreak: "break-word",
          lineClamp: lines,
          textOverflow: "ellipsis",
          direction: rtl ? "rtl" : "ltr",
          textAlign: "left",
        }}
      >
        {m.name}
      </div>
    </div>
  );
}

export interface PanelProps {
  colors: Palette;
  radius: number;
  outer: Record<string, string | number>;
  inner: Record<string, string | number>;
  children: ComponentChildren;
}

/**
 * A rounded surface with a 2px outline. Drawn as two nested rounded boxes:
 * satori renders CSS borders on rounded boxes as clipped strokes, and every
 * clip path costs resvg a full-canvas mask layer (~10 ms each).
 */
export function Panel(
  { colors: c, radius, outer, inner, children }: PanelProps,
) {
  return (
    <div
      style={{
        display: "flex",
        padding: 2,
        borderRadius: radius,
        backgroundColor: c.border,
        ...outer,
      }}
    >
      <div
        style={{
          display: "flex",
          flex: 1,
          flexDirection: "column",
          borderRadius: radius - 2,
          backgroundColor: c.surface,
          ...inner,
        }}
      >
        {children}
      </div>
    </div>
  );
}

interface StatBoxProps {
  colors: Palette;
  title: string;
  flex?: number;
  children: ComponentChildren;
}

function StatBox({ colors: c, title, flex = 1, children }: StatBoxProps) {
  return (
    <Panel
      colors={c}
      radius={20}
      outer={{ flex, minWidth: 0 }}
      inner={{ padding: "16px 22px", minWidth: 0 }}
    >
      <Label colors={c}>{title}</Label>
      <div
        style={{
          display: "flex",
          alignItems: "center",
          marginTop: 8,
          height: 52,
        }}
      >
        {children}
      </div>
    </Panel>
  );
}

function Stats({ model: m }: ModelProps) {
  const c = m.colors;
  const nf = new Intl.NumberFormat(m.locale);
  return (
    <div style={{ display: "flex", width: NAME_WIDTH, gap: 20 }}>
      <StatBox colors={c} title={m.labels.placesVisited}>
        <div
          style={statNumber(c.primaryInk)}
        >
          {nf.format(m.visits)}
        </div>
        <div
          style={{
            display: "block",
            fontSize: 24,
            color: c.text,
            marginLeft: 10,
            marginTop: 10,
            lineHeight: 1,
          }}
        >
          {m.labels.ofTotal}
        </div>
      </StatBox>
      <StatBox
        colors={c}
        title={m.labels.badgesEarned}
        flex={1.25}
      >
        <Badges model={m} />
      </StatBox>
    </div>
  );
}

/** The badge count and as many badge emoji as fit beside it, then "+N". */
function Badges({ model: m }: ModelProps) {
  const c = m.colors;
  if (m.badgeCount === 0) {
    return (
      <div
        style={{
          display: "block",
          fontSize: 24,
          color: c.muted,
          lineHeight: 1,
        }}
      >
        {m.labels.firstBadge}
      </div>
    );
  }
  const nf = new Intl.NumberFormat(m.locale);
  // Fit the icon chips next to the count: ~27px per count character at
  // 44px bold, 54px per chip, room for a "+N" when not all are shown.
  const countText = nf.format(m.badgeCount);
  const room = BADGE_BOX_INNER - countText.length * 27 - 14;
  let shown = m.badgeIcons;
  if (shown.length < m.badgeCount || shown.length * CHIP_STEP > room) {
    const plusWidth = 18 + String(m.badgeCount).length * 13;
    shown = shown.slice(
      0,
      Math.max(0, Math.floor((room - plusWidth) / CHIP_STEP)),
    );
  }
  const more = m.badgeCount - shown.length;
  return (
    <>
      <div
        style={statNumber(c.secondaryInk)}
      >
        {countText}
      </div>
      <div style={{ display: "flex", alignItems: "center", marginLeft: 14 }}>
        {shown.map((icon) => (
          <div
            style={{
              display: "flex",
              width: 48,
              height: 48,
              borderRadius: 999,
              backgroundColor: c.primaryTint,
              alignItems: "center",
              justifyContent: "center",
              marginRight: 6,
            }}
          >
            <div style={{ display: "block", fontSize: 28, lineHeight: 1 }}>
              {icon}
            </div>
          </div>
        ))}
        {more > 0
          ? (
            <div
              style={{
                display: "block",
                fontSize: 20,
                fontWeight: 700,
                color: c.muted,
                marginLeft: 4,
              }}
            >
              {`+${nf.format(more)}`}
            </div>
          )
          : null}
      </div>
    </>
  );
}

function ProgressPanel({ model: m }: ModelProps) {
  const c = m.colors;
  return (
    <Panel
      colors={c}
      radius={28}
      outer={{ width: RIGHT_COL }}
      inner={{ justifyContent: "center", padding: "26px 30px" }}
    >
      <Label colors={c}>{m.labels.progress}</Label>
      <div style={{ display: "flex", alignItems: "flex-end", marginTop: 6 }}>
        <div
          style={{
            display: "block",
            fontSize: 104,
            fontWeight: 700,
            color: c.primaryInk,
            lineHeight: 1,
            letterSpacing: -4,
          }}
        >
          {String(m.percent)}
        </div>
        <div
          style={{
            ...statNumber(c.primaryInk),
            marginLeft: 4,
            marginBottom: 10,
          }}
        >
          %
        </div>
      </div>
      <div
        style={{
          display: "flex",
          marginTop: 22,
          width: "100%",
          height: 18,
          borderRadius: 999,
          backgroundColor: c.track,
        }}
      >
        <div
          style={{
            display: "flex",
            width: `${m.percent}%`,
            height: "100%",
            borderRadius: 999,
            backgroundColor: c.primary,
          }}
        />
      </div>
      <div
        style={{
          display: "block",
          fontSize: 18,
          color: c.muted,
          marginTop: 16,
          lineHeight: 1.3,
        }}
      >
        {m.labels.remaining}
      </div>
    </Panel>
  );
}

/** A right arrow drawn as SVG (Inter's latin subset has no U+2192). */
function Arrow({ color }: { color: string }) {
  return (
    <svg
      width={30}
      height={30}
      viewBox="0 0 24 24"
      style={{ marginLeft: 12, marginTop: 2 }}
    >
      <path
        d="M4 12h15M13 6l6 6-6 6"
        fill="none"
        stroke={color}
        stroke-width={2.6}
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}

/**
 * The footer band of every card: the call to action with its arrow, the
 * line under it (left out when empty), and the three colour dots. Neither
 * line wraps: a long one is cut at the band's edge.
 */
export function CardFooter(
  { colors: c, cta, ctaNote }: {
    colors: Palette;
    cta: string;
    ctaNote: string;
  },
) {
  return (
    <div
      style={{
        display: "flex",
        height: 96,
        backgroundColor: c.primary,
        alignItems: "center",
        justifyContent: "space-between",
        padding: `0 ${PAD_X}px`,
      }}
    >
      <div style={{ display: "flex", flexDirection: "column", minWidth: 0 }}>
        <div style={{ display: "flex", alignItems: "center" }}>
          <div
            style={{
              display: "block",
              fontSize: 30,
              fontWeight: 700,
              color: c.onPrimary,
              lineHeight: 1.2,
              whiteSpace: "nowrap",
            }}
          >
            {cta}
          </div>
          <Arrow color={c.onPrimary} />
        </div>
        {ctaNote
          ? (
            <div
              style={{
                display: "block",
                fontSize: 18,
                color: c.onPrimaryMuted,
                marginTop: 4,
                lineHeight: 1.2,
                whiteSpace: "nowrap",
              }}
            >
              {ctaNote}
            </div>
          )
          : null}
      </div>
      <div style={{ display: "flex", alignItems: "center", gap: 10 }}>
        {[c.accent, c.secondary, c.background].map((dot) => (
          <div
            style={{
              display: "flex",
              width: 16,
              height: 16,
              borderRadius: 999,
              backgroundColor: dot,
            }}
          />
        ))}
      </div>
    </div>
  );
}
