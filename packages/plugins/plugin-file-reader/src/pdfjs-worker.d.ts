// pdf.js ships no declarations for its worker module; the file reader only hands it to pdf.js (extract-pdf.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
