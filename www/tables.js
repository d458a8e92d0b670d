// Tables beside and under the chart, built one way: the panel's report tables (view.js) and
// the data table of what the chart plots (plotted.js).

/**
 * A table with `caption`, column `headings` and `rows` of cell texts. The ARIA roles stay
 * when a narrow column lays the rows out as blocks (CSS display drops a table's semantics in
 * some browsers); each cell carries its column's name for that layout.
 */
export function buildTable(caption, headings, rows) {
  const table = document.createElement('table');
  table.setAttribute('role', 'table');
  table.createCaption().textContent = caption;
  const head = table.createTHead().insertRow();
  head.setAttribute('role', 'row');
  for (const heading of headings) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.setAttribute('role', 'columnheader');
    th.textContent = heading;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.setAttribute('role', 'row');
    row.forEach((text, i) => {
      const td = tr.insertCell();
      td.setAttribute('role', 'cell');
      td.textContent = text;
      td.dataset.label = headings[i];
    });
  }
  return table;
}

/** A number as the lab writes it everywhere, as the core does (Rust's `error::Compact`): its
 *  shortest digits that read back, in exponent form below 10⁻⁵ and from 10¹⁶ in size (`1e-20`,
 *  `1.23e29`), plainly between (never `0.00000000000000000001`, nor thirty digits). */
export function compactNumber(value) {
  const size = Math.abs(value);
  if (size !== 0 && Number.isFinite(size) && (size < 1e-5 || size >= 1e16)) return value.toExponential().replace('e+', 'e');
  return String(value);
}

/** `value` to `digits` significant digits, in the one format (`compactNumber`): a slider's
 *  value (10**0.30103 → "2"), a point's coordinates, a readout. */
export const significant = (value, digits) => compactNumber(Number(value.toPrecision(digits)));

/** A readout or a table's cell: ±∞ (α of a pruned basis vector) as ∞; whole numbers as they
 *  are (N, a step) below a million; others to 5 significant digits; all in the one format
 *  (`compactNumber`). */
export function formatNumber(value) {
  if (Math.abs(value) === Infinity) return value > 0 ? '∞' : '−∞';
  if (!Number.isFinite(value) || (Number.isInteger(value) && Math.abs(value) < 1e6)) return compactNumber(value);
  return significant(value, 5);
}
