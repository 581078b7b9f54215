// What an extractor gives back: the document's text in its natural units (pages, slides, sheets, lines), how many
// there were before the page limit, and images found inside it (for the media service to describe).
import type { FileKind } from './sniff-file.js';

export type DocumentUnit = 'page' | 'slide' | 'sheet' | 'line';

export interface EmbeddedImage {
  name: string;
  bytes: Uint8Array;
}

export interface ExtractedDocument {
  kind: FileKind;
  unit: DocumentUnit;
  /** The text of each unit read, in order. */
  units: string[];
  /** How many units the document has (more than units.length when the page limit cut it). */
  totalUnits: number;
  /** The text encoding detected (text files). */
  encoding?: string;
  images: EmbeddedImage[];
}

export interface ExtractLimits {
  maxPages: number;
  maxExpandedBytes: number;
  maxArchiveEntries: number;
  /** How many embedded images to hand back at most. */
  maxImages: number;
}
