import { type ByteWindow, type Edit, MAX_READ } from './byte-window.js';
import { SPACE } from './patches.js';

/** A large packet is searched for a location property up to this size; a larger one is blanked unread. */
const MAX_SEARCHED = 16 * MAX_READ;
/** How a GPS property's name starts, after its namespace prefix (exif:GPSLatitude, drone-dji:GpsLatitude). */
const GPS_LOCAL_NAME = /^gps/i;
/**
 * Properties that name the place: IPTC Core and Photoshop's (photoshop:City, photoshop:State,
 * photoshop:Country, Iptc4xmpCore:Location, Iptc4xmpCore:CountryCode), IPTC Extension's
 * structures (Iptc4xmpExt:LocationCreated and LocationShown, whose fields are these names again),
 * and a video's xmpDM:shotLocation. Matched by local name in any namespace: blanking a namesake
 * from another vocabulary costs a recipient one property, never the owner anything.
 */
const PLACE_LOCAL_NAMES: ReadonlySet<string> = new Set([
  'City', 'State', 'Country', 'CountryCode', 'CountryName', 'ProvinceState', 'Sublocation', 'WorldRegion',
  'Location', 'LocationCreated', 'LocationShown', 'LocationId', 'LocationName', 'shotLocation',
]);
/** Text that can only be a location property's name: base64 image data (depth maps) never holds '<' or ':'. */
const GPS_MENTION = /[<:]gps/i;
const PLACE_MENTION = /[<:](?:City|State|Country|ProvinceState|Sublocation|WorldRegion|Location|shotLocation)/;

/** Whether XMP text has a location property (one xmpLocationEdits would blank): for packets that cannot be blanked in place. */
export function xmpTextNamesLocation(text: string): boolean {
  return locationPropertySpans(text).length > 0;
}

interface Span {
  start: number;
  end: number;
}

/**
 * Blanks every location property of an XMP packet — its GPS properties and the names of its place
 * (PLACE_LOCAL_NAMES) — the whole property, name and value (an attribute
 * `exif:GPSLatitude="41,51.18N"`, or an element `<exif:GPSLatitude>…</exif:GPSLatitude>`), with
 * spaces, byte for byte. Whitespace is allowed between attributes and between property elements,
 * so the packet stays well-formed and the same length, and no reader finds an empty property
 * left behind. A packet larger than one read is not parsed: if it mentions one at all (or is too
 * large to search) it is blanked whole.
 * UTF-16 packets (allowed by the XMP spec, not seen in photos) are not recognised.
 */
export async function xmpLocationEdits(xmp: ByteWindow, out: Edit[]): Promise<void> {
  if (xmp.size <= MAX_READ) {
    // latin1 maps each byte to one character, so string indices are byte offsets; the markup
    // looked for is ASCII, and multi-byte UTF-8 text inside a blanked span becomes one space per byte.
    const text = (await xmp.read(0, xmp.size)).toString('latin1');
    for (const span of locationPropertySpans(text)) out.push(...xmp.fill(span.start, span.end - span.start, SPACE));
  } else if (xmp.size > MAX_SEARCHED || (await mentionsLocation(xmp))) {
    out.push(...xmp.fill(0, xmp.size, SPACE));
  }
}

async function mentionsLocation(xmp: ByteWindow): Promise<boolean> {
  // Reads overlap by the longest mention's length, so none is cut in two between reads.
  const overlap = '<ProvinceState'.length;
  for (let at = 0; at < xmp.size; at += MAX_READ - overlap) {
    const text = (await xmp.read(at, MAX_READ)).toString('latin1');
    if (GPS_MENTION.test(text) || PLACE_MENTION.test(text)) return true;
  }
  return false;
}

/**
 * Where location properties are in XMP text. A single forward pass over the markup (no regular
 * expression that could backtrack), so hostile text costs time linear in its length. Text that
 * ends inside a location element is blanked to its end: a cut-off packet must not keep a position.
 */
function locationPropertySpans(text: string): Span[] {
  const spans: Span[] = [];
  let open: { name: string; start: number; depth: number } | null = null;
  let at = 0;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    if (lt < 0) break;
    const skipped = skipNonElement(text, lt);
    if (skipped !== null) {
      at = skipped;
      continue;
    }
    const tag = readTag(text, lt);
    at = tag.end;
    if (open) {
      // Inside a location element everything goes with it; only same-named nesting is tracked.
      if (tag.name === open.name && !tag.selfClosing) open.depth += tag.closing ? -1 : 1;
      if (open.depth === 0) {
        spans.push({ start: open.start, end: tag.end });
        open = null;
      }
    } else if (!tag.closing && isLocationName(tag.name)) {
      if (tag.selfClosing) spans.push({ start: lt, end: tag.end });
      else open = { name: tag.name, start: lt, depth: 1 };
    } else {
      for (const attribute of tag.attributes) if (isLocationName(attribute.name)) spans.push(attribute);
    }
  }
  if (open) spans.push({ start: open.start, end: text.length });
  return spans;
}

function isLocationName(qualifiedName: string): boolean {
  // A namespace declaration (xmlns:gps="…") is no property: blanking it would unbind its prefix.
  if (qualifiedName === 'xmlns' || qualifiedName.startsWith('xmlns:')) return false;
  const localName = qualifiedName.slice(qualifiedName.indexOf(':') + 1);
  return GPS_LOCAL_NAME.test(localName) || PLACE_LOCAL_NAMES.has(localName);
}

/** Comments, CDATA, processing instructions and declarations: where they end, or null for an element tag. */
function skipNonElement(text: string, lt: number): number | null {
  const pastEnd = (terminator: string, from: number) => {
    const end = text.indexOf(terminator, from);
    return end < 0 ? text.length : end + terminator.length;
  };
  if (text.startsWith('<!--', lt)) return pastEnd('-->', lt + 4);
  if (text.startsWith('<![CDATA[', lt)) return pastEnd(']]>', lt + 9);
  if (text.startsWith('<?', lt)) return pastEnd('?>', lt + 2);
  if (text.startsWith('<!', lt)) return pastEnd('>', lt + 2);
  return null;
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Each attribute's span, from its name to its closing quote. */
  attributes: Array<Span & { name: string }>;
  /** Just past the tag's '>' (or the text's end). */
  end: number;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const endsName = (c: string | undefined) => c === undefined || isSpace(c) || c === '>' || c === '/' || c === '=';

/** The element tag starting at `lt`. Quoted attribute values may hold '>' and are skipped whole. */
function readTag(text: string, lt: number): Tag {
  let at = lt + 1;
  const closing = text[at] === '/';
  if (closing) at += 1;
  const nameStart = at;
  while (!endsName(text[at])) at += 1;
  const tag: Tag = { name: text.slice(nameStart, at), closing, selfClosing: false, attributes: [], end: text.length };
  while (at < text.length) {
    const c = text[at];
    if (c === '>') {
      tag.end = at + 1;
      return tag;
    }
    if (c === '/' && text[at + 1] === '>') {
      tag.selfClosing = true;
      tag.end = at + 2;
      return tag;
    }
    if (isSpace(c) || c === '/' || c === '=') {
      at += 1;
      continue;
    }
    const start = at;
    while (!endsName(text[at])) at += 1;
    const name = text.slice(start, at);
    while (isSpace(text[at])) at += 1;
    if (text[at] !== '=') continue;
    at += 1;
    while (isSpace(text[at])) at += 1;
    const quote = text[at];
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, at + 1);
      at = close < 0 ? text.length : close + 1;
    } else {
      while (at < text.length && !isSpace(text[at]) && text[at] !== '>') at += 1;
    }
    tag.attributes.push({ name, start, end: at });
  }
  return tag;
}
