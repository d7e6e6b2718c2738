// Reads a PNG's pixels (8-bit RGB or RGBA, not interlaced: what Chromium writes) with node:zlib. Not a test file.
import { inflateSync } from "node:zlib";

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Uint8Array;
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

export function decodePng(png: Buffer): Pixels {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6))
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const byte = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= channels ? (rows[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (rows[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (rows[(y - 1) * stride + x - channels] as number) : 0;
      const add = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? paeth(a, b, c) : 0;
      rows[y * stride + x] = (byte + add) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = rows[i * channels] as number;
    data[i * 4 + 1] = rows[i * channels + 1] as number;
    data[i * 4 + 2] = rows[i * channels + 2] as number;
    data[i * 4 + 3] = channels === 4 ? (rows[i * channels + 3] as number) : 255;
  }
  return { width, height, data };
}

/** How many distinct colours the pixels hold. */
export function countColours(pixels: Pixels): number {
  const seen = new Set<number>();
  for (let i = 0; i < pixels.data.length; i += 4) {
    seen.add(
      ((pixels.data[i] as number) << 24) |
        ((pixels.data[i + 1] as number) << 16) |
        ((pixels.data[i + 2] as number) << 8) |
        (pixels.data[i + 3] as number),
    );
  }
  return seen.size;
}

/** The share of the pixels inside `box` (its edges left out) within `tolerance` of `#rrggbb` on every channel. */
export function shareOfColour(
  pixels: Pixels,
  box: { x: number; y: number; width: number; height: number },
  hex: string,
  tolerance = 12,
): number {
  const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [x0, y0] = [Math.ceil(box.x) + 1, Math.ceil(box.y) + 1];
  const [x1, y1] = [Math.min(pixels.width, Math.floor(box.x + box.width) - 1), Math.floor(box.y + box.height) - 1];
  let inside = 0;
  let matching = 0;
  for (let y = y0; y < Math.min(y1, pixels.height); y++) {
    for (let x = x0; x < x1; x++) {
      inside++;
      const at = (y * pixels.width + x) * 4;
      if (want.every((v, c) => Math.abs((pixels.data[at + c] as number) - v) <= tolerance)) matching++;
    }
  }
  return inside === 0 ? 0 : matching / inside;
}
