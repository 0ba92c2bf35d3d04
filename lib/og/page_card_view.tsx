/**
 * The share card of a public page (the home page, an attraction): the same
 * 1200x630 frame, header and footer band as a route's card (card_view.tsx),
 * with a title, one line of text and a few facts in the middle. JSX for
 * satori, like card_view.tsx: every box sets `display`.
 */
import {
  CARD_WIDTH,
  CardFooter,
  CardFrame,
  Label,
  type Logo,
} from "./card_view.tsx";
import type { Palette } from "./palette.ts";
import { isRtl, pickNameSize } from "./text.ts";

const PAD_X = 64;
/** Width of the title, the text and the facts. */
const BODY_WIDTH = CARD_WIDTH - PAD_X * 2;
/** A photo's box on the right of the text (4:3, cropped to fill it). */
const PHOTO_WIDTH = 360;
const PHOTO_HEIGHT = 270;
const PHOTO_GAP = 40;

/** A page card's content, ready to lay out: every value is safe to draw. */
export interface PageCardModel {
  pill: string;
  headerNote: string;
  eyebrow: string;
  title: string;
  text: string;
  facts: string[];
  cta: string;
  ctaNote: string;
  brandName: string;
  logo: Logo | null;
  colors: Palette;
  /** A JPEG data URI (card_model.ts checks it), drawn beside the text. */
  photo: string | null;
}

interface ModelProps {
  model: PageCardModel;
}

/** The whole 1200x630 card of a page: what render_card.ts gives satori. */
export function PageCardView({ model: m }: ModelProps) {
  return (
    <CardFrame
      header={{
        colors: m.colors,
        logo: m.logo,
        brandName: m.brandName,
        note: m.headerNote,
        pill: m.pill,
      }}
      paddingBottom={32}
      footer={<CardFooter colors={m.colors} cta={m.cta} ctaNote={m.ctaNote} />}
    >
      <div
        style={{
          display: "flex",
          flexDirection: "row",
          alignItems: "center",
          gap: PHOTO_GAP,
          flex: 1,
          minHeight: 0,
        }}
      >
        <Body
          model={m}
          width={m.photo ? BODY_WIDTH - PHOTO_WIDTH - PHOTO_GAP : BODY_WIDTH}
        />
        {m.photo
          ? (
            <img
              src={m.photo}
              width={PHOTO_WIDTH}
              height={PHOTO_HEIGHT}
              style={{
                width: PHOTO_WIDTH,
                height: PHOTO_HEIGHT,
                objectFit: "cover",
                borderRadius: 24,
              }}
            />
          )
          : null}
      </div>
    </CardFrame>
  );
}

function Body({ model: m, width }: ModelProps & { width: number }) {
  const c = m.colors;
  // Two lines at most, like a tourist's name on the route card.
  const { fontSize } = pickNameSize(m.title, width);
  const lineHeight = Math.round(fontSize * 1.12);
  const rtl = isRtl(m.title);
  return (
    <div
      style={{ display: "flex", flexDirection: "column", width: width }}
    >
      {m.eyebrow ? <Label colors={c}>{m.eyebrow}</Label> : null}
      <div
        lang={rtl ? "ar" : undefined}
        style={{
          display: "block",
          marginTop: 10,
          fontSize,
          fontWeight: 700,
          lineHeight: `${lineHeight}px`,
          letterSpacing: fontSize >= 60 ? -1.5 : -1,
          color: c.text,
          width: width,
          maxHeight: lineHeight * 2,
          overflowWrap: "anywhere",
          wordBreak: "break-word",
          lineClamp: 2,
          textOverflow: "ellipsis",
          direction: rtl ? "rtl" : "ltr",
          textAlign: "left",
        }}
      >
        {m.title}
      </div>
      {m.text
        ? (
          <div
            style={{
              display: "block",
              marginTop: 16,
              fontSize: 28,
              lineHeight: "38px",
              color: c.text,
              width: width,
              maxHeight: 76,
              lineClamp: 2,
              textOverflow: "ellipsis",
            }}
          >
            {m.text}
          </div>
        )
        : null}
      {m.facts.length > 0
        ? (
          <div style={{ display: "flex", marginTop: 26, gap: 12 }}>
            {m.facts.map((fact, i) => <Fact key={i} colors={c}>{fact}</Fact>)}
          </div>
        )
        : null}
    </div>
  );
}

function Fact({ colors: c, children }: { colors: Palette; children: string }) {
  return (
    <div
      style={{
        display: "flex",
        alignItems: "center",
        padding: 2,
        borderRadius: 999,
        backgroundColor: c.border,
      }}
    >
      <div
        style={{
          display: "block",
          padding: "9px 20px",
          borderRadius: 999,
          backgroundColor: c.surface,
          color: c.primaryInk,
          fontSize: 21,
          fontWeight: 700,
          lineHeight: 1.2,
          whiteSpace: "nowrap",
        }}
      >
        {children}
      </div>
    </div>
  );
}
