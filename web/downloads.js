// Downloads built in the page: one text file, or several as a .tar archive (POSIX ustar, which every
// tar and archive tool opens), so the pipeline templates come down as one file (docs/web-ui.md#result).
// Top-level, so the other pages' scripts see its type when checked (web/tsconfig.json).
const platDownloadsLib = (function () {
  const encoder = new TextEncoder();

  /**
   * Starts a download of `data` (a string or bytes) named `name`.
   * @param {string} name
   * @param {string | Uint8Array<ArrayBuffer>} data
   * @param {string} [type]
   */
  function download(name, data, type = 'text/plain') {
    const url = URL.createObjectURL(new Blob([data], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /**
   * A ustar archive of `files` (`[{path, content}]`).
   * @param {{ path: string, content: string }[]} files
   */
  function tarArchive(files) {
    const blocks = [];
    for (const f of files) {
      const body = encoder.encode(f.content);
      const header = new Uint8Array(512);
      /** @type {(text: string, offset: number, length: number) => void} */
      const put = (text, offset, length) => header.set(encoder.encode(text).slice(0, length), offset);
      /** @type {(n: number, length: number) => string} */
      const octalAt = (n, length) => n.toString(8).padStart(length - 1, '0') + '\0';
      // Long paths split into ustar's prefix (155 bytes) and name (100 bytes) at a slash.
      const cut = f.path.length > 100 ? f.path.lastIndexOf('/', 155) : -1;
      put(cut > 0 ? f.path.slice(cut + 1) : f.path, 0, 100);
      if (cut > 0) put(f.path.slice(0, cut), 345, 155);
      put(octalAt(0o644, 8), 100, 8);
      put(octalAt(0, 8), 108, 8);
      put(octalAt(0, 8), 116, 8);
      put(octalAt(body.length, 12), 124, 12);
      put(octalAt(Math.floor(Date.now() / 1000), 12), 136, 12);
      put('        ', 148, 8);
      put('0', 156, 1);
      put('ustar\u000000', 257, 8);
      const sum = header.reduce((n, b) => n + b, 0);
      put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
      blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
    }
    blocks.push(new Uint8Array(1024));
    const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of blocks) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }

  return { download, tarArchive };
})();
window.platDownloads = platDownloadsLib;
