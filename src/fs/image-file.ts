/**
 * Reading an image file for the model (`@shot.png`, a pasted path, the Read tool): a regular file, its size
 * checked before any byte is read (a huge file or a device is never read whole), then its content checked by
 * magic bytes (text/image-part.ts). Never throws. The caller applies its path guard first.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { imageFromBytes, imageTooLarge, MAX_IMAGE_BYTES, type ImageCheck } from '../text/image-part.js';

export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp'] as const;

/** A path whose extension names an image type mca can send (case-insensitive). */
export function isImagePath(path: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase());
}

export type ImageFileRead = ImageCheck | { ok: false; code: 'UNREADABLE'; message: string };

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

export function readImageFile(path: string, label: string): ImageFileRead {
  let fd: number | undefined;
  try {
    fd = openSync(path, OPEN_FLAGS);
    const info = fstatSync(fd);
    if (!info.isFile()) return { ok: false, code: 'UNREADABLE', message: `${label} is not a regular file` };
    if (info.size > MAX_IMAGE_BYTES) return imageTooLarge(label, info.size);
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < info.size) {
      const got = readSync(fd, bytes, read, info.size - read, read);
      if (got === 0) break;
      read += got;
    }
    return imageFromBytes(bytes.subarray(0, read), label);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, code: 'UNREADABLE', message: `${label} could not be read (${code})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
