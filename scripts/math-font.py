#!/usr/bin/env python3
"""Makes www/fonts/lab-math.woff2, the page's math font: a subset of Latin Modern Math
(TeX's Computer Modern made for OpenType math, by B. Jackowski, P. Strzelczyk and
P. Pianowski for the TeX Users Groups, under the GUST Font License), so that lesson equations
are set as TeX sets them, with brackets, braces and radicals that stretch (its MATH table),
in Chromium and Firefox whatever fonts the reader's system has.

    python3 scripts/math-font.py /usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf

The source is Debian's fonts-lmodern 2.005-1 (`apt-get install fonts-lmodern`); the tools are
PyPI's fonttools 4.68.0 and brotli 1.2.1 (`pip install fonttools==4.68.0 brotli==1.2.1`). The
output is committed (www/fonts/), so a build needs neither. The subset keeps the characters
lecturers write in this course's equations (UNICODES below: Latin, Greek, the operators,
relations, arrows and delimiters of linear algebra and probability, and the bold, italic,
bold italic, script and double-struck alphabets that \\mathbf, \\boldsymbol, \\mathcal and
\\mathbb give), every glyph variant and assembly part of theirs that the MATH table names (the
closure pyftsubset takes), and the dotless i and j for accents; it leaves out the script-size
alternates (`ssty`, about half the font's glyphs: 81 KB instead of 178 KB), which browsers then
make by scaling. A character outside it is drawn in the system's math font (the stylesheet's
`math` fallback). The fonts' names are changed (the GUST Font License asks it of derived
works); their copyright and licence notices are kept.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parent.parent / 'www' / 'fonts' / 'lab-math.woff2'

UNICODES = ','.join([
    # Basic Latin, and Latin-1's ¬ ± · × ÷; dotless ı ȷ; spacing accents; combining accents and
    # the long solidus (negation).
    'U+0020-007E', 'U+00A0', 'U+00AC', 'U+00B1', 'U+00B7', 'U+00D7', 'U+00F7', 'U+0131', 'U+0237',
    'U+02C6', 'U+02C7', 'U+02C9', 'U+02D8-02DA', 'U+02DC', 'U+0300-0304', 'U+0306-0308', 'U+030A',
    'U+030C', 'U+0338',
    # Greek, with its variant letters (ϑ ϕ ϖ ϰ ϱ ϵ).
    'U+0391-03A1', 'U+03A3-03A9', 'U+03B1-03C9', 'U+03D1', 'U+03D5', 'U+03D6', 'U+03F0', 'U+03F1', 'U+03F5',
    # ‖ † ‡ … primes, the invisible operators, the vector arrow and ⃡ above.
    'U+2016', 'U+2020', 'U+2021', 'U+2026', 'U+2032-2034', 'U+2061-2064', 'U+20D7', 'U+20E1',
    # Letterlike: ℂ ℎ ℓ ℕ ℙ ℚ ℝ ℤ ∂ ∇, and the script capitals Unicode has there.
    'U+2102', 'U+210B', 'U+210E', 'U+2110', 'U+2112', 'U+2113', 'U+2115', 'U+2119', 'U+211A', 'U+211B',
    'U+211D', 'U+2124', 'U+212C', 'U+2130', 'U+2131', 'U+2133', 'U+2202', 'U+2207',
    # Arrows: ← ↑ → ↓ ↔ ↕ ↦ harpoons ⇌ ⇐ ⇑ ⇒ ⇓ ⇔ ⇕ and the long ones.
    'U+2190-2195', 'U+21A6', 'U+21C0', 'U+21C1', 'U+21CC', 'U+21D0-21D5', 'U+27F5-27FA', 'U+27FC',
    # Operators and relations.
    'U+2200', 'U+2203-2205', 'U+2208', 'U+2209', 'U+220B', 'U+220F-2219', 'U+221A', 'U+221D', 'U+221E',
    'U+2223-222E', 'U+2234', 'U+2235', 'U+223C', 'U+223D', 'U+2243', 'U+2245', 'U+2248', 'U+224D',
    'U+2250', 'U+2254', 'U+225C', 'U+2260-2265', 'U+226A', 'U+226B', 'U+226E-2271', 'U+227A', 'U+227B',
    'U+2282-2289', 'U+228E', 'U+2291-2299', 'U+22A2', 'U+22A4', 'U+22A5', 'U+22A8', 'U+22C0-22C6',
    'U+22C8', 'U+22EE', 'U+22EF', 'U+22F1',
    # Delimiters: ⌈ ⌉ ⌊ ⌋, braces and brackets over and under, ⟦ ⟧ ⟨ ⟩; ⨀ ⨁ ⨂ ⨌ ⨯ ⩽ ⩾.
    'U+2308-230B', 'U+23B4', 'U+23B5', 'U+23DC-23E1', 'U+27E6-27E9', 'U+2A00-2A02', 'U+2A0C', 'U+2A2F',
    'U+2A7D', 'U+2A7E',
    # Mathematical alphanumerics: bold, italic (ℎ above), bold italic, script, double-struck
    # capitals; bold, italic and bold italic Greek; bold digits.
    'U+1D400-1D454', 'U+1D456-1D49C', 'U+1D49E', 'U+1D49F', 'U+1D4A2', 'U+1D4A5', 'U+1D4A6',
    'U+1D4A9-1D4AC', 'U+1D4AE-1D4B5', 'U+1D538', 'U+1D539', 'U+1D53B-1D53E', 'U+1D540-1D544',
    'U+1D546', 'U+1D54A-1D550', 'U+1D6A8-1D755', 'U+1D7CE-1D7D7',
])

NAME = 'RVM Lab Math'


def main(source):
    with tempfile.TemporaryDirectory() as scratch:
        subset = Path(scratch) / 'subset.otf'
        subprocess.run([
            sys.executable, '-m', 'fontTools.subset', source, f'--unicodes={UNICODES}',
            '--layout-features=dtls', '--no-hinting', '--desubroutinize', f'--output-file={subset}',
        ], check=True)
        # The source's timestamps, so that the same source makes the same file.
        font = TTFont(subset, recalcTimestamp=False)
        # Family, subfamily, unique, full and PostScript names; the copyright (0), licence
        # (13, 14) and the rest stay.
        names = {1: NAME, 3: f'{NAME} Regular (subset of Latin Modern Math 1.959)', 4: NAME, 6: 'RVMLabMath-Regular'}
        for record in font['name'].names:
            if record.nameID in names:
                record.string = names[record.nameID]
        font['CFF '].cff.fontNames = ['RVMLabMath-Regular']
        font.flavor = 'woff2'
        OUT.parent.mkdir(exist_ok=True)
        font.save(OUT)
    print(f'[math-font] {OUT}: {OUT.stat().st_size} bytes, {len(font.getGlyphOrder())} glyphs')


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf')
