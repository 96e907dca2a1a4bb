// `node scripts/icons.ts`: renders build/icon.svg into every icon the installers need, committed beside it:
// build/icons/NxN.png (Linux), build/icon.png, build/icon.ico (Windows) and build/icon.icns (macOS).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types holding PNG data, by their pixel size (the @2x types share a size with a plain one). */
const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['icp6', 64],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
  ['ic10', 1024],
];

function png(pngs: Map<number, Buffer>, size: number): Buffer {
  const data = pngs.get(size);
  if (!data) throw new Error(`no ${size}px rendering`);
  return data;
}

/** A Windows icon whose images are PNGs (read by Windows Vista and later); 256 is stored as 0. */
export function icoFile(pngs: Map<number, Buffer>): Buffer {
  const images = ICO_SIZES.map((size) => ({ size, png: png(pngs, size) }));
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size % 256, at);
    header.writeUInt8(size % 256, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

/** A macOS icon of PNG entries: a type and a length before each, the file's length in its header. */
export function icnsFile(pngs: Map<number, Buffer>): Buffer {
  const entries = ICNS_TYPES.map(([type, size]) => {
    const data = png(pngs, size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + entries.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

async function render(buildDir: string): Promise<void> {
  // A dev dependency with a prebuilt renderer for each platform: no browser, no system library.
  const { Resvg } = await import('@resvg/resvg-js');
  const svg = readFileSync(join(buildDir, 'icon.svg'));
  const pngs = new Map<number, Buffer>();
  for (const size of new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])) {
    pngs.set(size, new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng());
  }
  mkdirSync(join(buildDir, 'icons'), { recursive: true });
  for (const size of LINUX_SIZES) writeFileSync(join(buildDir, 'icons', `${size}x${size}.png`), png(pngs, size));
  writeFileSync(join(buildDir, 'icon.png'), png(pngs, 1024));
  writeFileSync(join(buildDir, 'icon.ico'), icoFile(pngs));
  writeFileSync(join(buildDir, 'icon.icns'), icnsFile(pngs));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await render(resolve(import.meta.dirname, '../build'));
}
