// The PRD editor of the modify decision: the PRD as JSON text, and each error (a JSON syntax error
// here, or the server's 400/422 details) listed with its line and selecting its place in the text
// when clicked (docs/web-ui.md).
// Top-level, so the other pages' scripts see its type when checked (web/tsconfig.json).
const platPrdEditorLib = (function () {
  const { h } = window.plat;

  class JsonSyntaxError extends Error {
    /**
     * @param {string} message
     * @param {number} offset where in the text
     */
    constructor(message, offset) {
      super(message);
      this.offset = offset;
    }
  }

  /**
   * Parses JSON text and records where each value is: `positions.get('layers.ads.0.name')` is
   * `[start, end]` in the text. A syntax error is a JsonSyntaxError with its offset.
   * @param {string} text
   */
  function parseWithPositions(text) {
    /** @type {Map<string, Span>} */
    const positions = new Map();
    let i = 0;
    const ws = () => {
      while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    };
    /**
     * @param {string} what
     * @returns {never}
     */
    const fail = (what) => {
      throw new JsonSyntaxError(what, i);
    };
    /** @param {string} ch */
    const expect = (ch) => {
      if (text[i] !== ch) fail(`expected ${ch === '"' ? 'a string' : `"${ch}"`}`);
      i++;
    };
    /**
     * @param {string[]} path
     * @returns {unknown} the JSON value
     */
    function value(path) {
      ws();
      const start = i;
      let v;
      const ch = text[i];
      if (ch === '{') {
        i++;
        v = /** @type {Record<string, unknown>} */ ({});
        ws();
        if (text[i] === '}') i++;
        else
          for (;;) {
            ws();
            const key = string();
            ws();
            expect(':');
            v[key] = value(path.concat(key));
            ws();
            if (text[i] === ',') {
              i++;
              continue;
            }
            expect('}');
            break;
          }
      } else if (ch === '[') {
        i++;
        v = [];
        ws();
        if (text[i] === ']') i++;
        else
          for (;;) {
            v.push(value(path.concat(String(v.length))));
            ws();
            if (text[i] === ',') {
              i++;
              continue;
            }
            expect(']');
            break;
          }
      } else if (ch === '"') {
        v = string();
      } else {
        const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
        if (!m) fail(i >= text.length ? 'the text ends too early' : `unexpected ${JSON.stringify(ch)}`);
        i += m[0].length;
        v = JSON.parse(m[0]);
      }
      positions.set(path.join('.'), [start, i]);
      return v;
    }
    /** @returns {string} */
    function string() {
      if (text[i] !== '"') fail('expected a string in double quotes');
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) fail('a string is not closed');
      i++;
      try {
        return JSON.parse(text.slice(start, i));
      } catch {
        i = start;
        return fail('a string has a bad escape');
      }
    }
    const result = value([]);
    ws();
    if (i < text.length) fail('unexpected text after the PRD');
    return { value: result, positions };
  }

  /** @typedef {[start: number, end: number]} Span a value's place in the text */
  /** @typedef {{ field?: string, message?: string } | null} Detail one of the server's 400/422 details */

  /** @type {(text: string, offset: number) => number} */
  const lineOf = (text, offset) => text.slice(0, offset).split('\n').length;

  /**
   * The closest recorded place for a field path: the path itself or its nearest parent.
   * @param {Map<string, Span>} positions
   * @param {string | undefined} field
   */
  function place(positions, field) {
    const parts = String(field || '')
      .replace(/^(prd|body)\.?/, '')
      .split('.')
      .filter(Boolean);
    for (let n = parts.length; n >= 0; n--) {
      const p = positions.get(parts.slice(0, n).join('.'));
      if (p) return p;
    }
    return undefined;
  }

  /**
   * Builds the editor for `prd` inside `container`. `onSubmit(prd)` sends it and resolves, or throws
   * an error whose `details` (`[{field, message}]`) are shown against the text.
   * @param {Element} container
   * @param {ApiPrd} prd
   * @param {{ onSubmit: (prd: unknown) => Promise<void>, onCancel: () => void }} handlers `prd` is the
   *   parsed text, as the person wrote it: the server checks it
   */
  function createPrdEditor(container, prd, { onSubmit, onCancel }) {
    const text = h('textarea', {
      id: 'prd-json',
      rows: 24,
      spellcheck: 'false',
      'aria-label': 'PRD as JSON',
      'aria-describedby': 'prd-errors',
    });
    text.value = JSON.stringify(prd, null, 2);
    const errors = h('div', { id: 'prd-errors', class: 'error-box', role: 'alert', hidden: true });
    const submit = h('button', { type: 'submit', id: 'prd-save' }, 'Save and approve');
    const form = h(
      'form',
      { class: 'stack', id: 'prd-editor', novalidate: true },
      h(
        'p',
        { class: 'muted' },
        'Edit the PRD, then save: plat checks it (field types, table and metric names, ADS partitions) and ' +
          'approves it. Clicking an error selects its place in the text.',
      ),
      text,
      errors,
      h(
        'div',
        { class: 'actions' },
        submit,
        h('button', { type: 'button', class: 'secondary', onclick: onCancel }, 'Cancel'),
      ),
    );
    container.replaceChildren(form);

    /** @param {Span} span */
    const select = ([start, end]) => {
      text.focus();
      text.setSelectionRange(start, end);
      // Scroll the selection into view: the line's share of the text's height.
      const line = lineOf(text.value, start);
      const lines = text.value.split('\n').length;
      text.scrollTop = Math.max(0, (line / lines) * text.scrollHeight - text.clientHeight / 2);
    };

    /**
     * @param {string} message
     * @param {{ label: string, at?: Span }[]} items
     */
    function show(message, items) {
      errors.replaceChildren(
        h('strong', {}, message),
        items.length
          ? h(
              'ul',
              {},
              items.map(({ label, at }) =>
                h(
                  'li',
                  {},
                  at
                    ? h('button', { type: 'button', class: 'secondary', onclick: () => select(at) }, label)
                    : label,
                ),
              ),
            )
          : '',
      );
      errors.hidden = false;
      text.setAttribute('aria-invalid', 'true');
    }

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      errors.hidden = true;
      text.removeAttribute('aria-invalid');
      let parsed;
      try {
        parsed = parseWithPositions(text.value);
      } catch (err) {
        if (!(err instanceof JsonSyntaxError)) throw err;
        /** @type {Span} */
        const at = [err.offset, Math.min(err.offset + 1, text.value.length)];
        return show('The PRD is not valid JSON.', [
          { label: `line ${lineOf(text.value, err.offset)}: ${err.message}`, at },
        ]);
      }
      submit.disabled = true;
      try {
        await onSubmit(parsed.value);
      } catch (err) {
        if (err instanceof window.plat.PageLeft) throw err;
        /** @type {Detail[]} */
        const details = Array.isArray(err.details)
          ? err.details.filter(/** @param {Detail} d */ (d) => d && d.field)
          : [];
        const items = details.map((d) => {
          const at = place(parsed.positions, d.field);
          const where = at ? `line ${lineOf(text.value, at[0])}, ` : '';
          return { label: `${where}${d.field.replace(/^(prd|body)\./, '')}: ${d.message}`, at };
        });
        show(
          err.status === 409 ? err.message : `The server refused the PRD (${err.status}): ${err.message}`,
          items,
        );
      } finally {
        submit.disabled = false;
      }
    });
    return { focus: () => text.focus() };
  }

  return { createPrdEditor, parseWithPositions };
})();
window.platPrdEditor = platPrdEditorLib;
