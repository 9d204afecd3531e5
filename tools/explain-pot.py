#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the gettext template of the "explain this" texts (data/explain/*.ini) for translators.

The texts stay in their key files (one entry per syscall, tracepoint, errno and state letter); the
keys that are prose (summary, description, note, hint, name, about.FIELD) become messages of the
seismo-explain domain, which data/seismo-explain.c looks up with g_dgettext() unless the file
itself has a KEY[LANG]= entry. xgettext cannot do this: about.FIELD keys have one name per field.

    tools/explain-pot.py OUT.pot data/explain/*.ini
"""
import re
import sys

PROSE = re.compile(r'^(summary|description|note|hint|name|about\.[A-Za-z0-9_]+)=(.*)$')


def po_escape(text):
    return text.replace('\\', '\\\\').replace('"', '\\"').replace('\t', '\\t')


def main():
    out, inputs = sys.argv[1], sys.argv[2:]
    seen = {}
    order = []
    for path in inputs:
        group = None
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip('\n')
                if line.startswith('['):
                    group = line.strip('[]')
                    continue
                m = PROSE.match(line)
                if not m or not m.group(2).strip():
                    continue
                # Key files keep "\n" escapes: a message holds the same two characters.
                text = m.group(2)
                ref = '%s:%d' % (path.split('/data/', 1)[-1] if '/data/' in path else path, number)
                if text not in seen:
                    seen[text] = []
                    order.append(text)
                seen[text].append((ref, group, m.group(1)))
    with open(out, 'w', encoding='utf-8') as f:
        f.write('# Texts of "explain this" (data/explain/*.ini), domain seismo-explain.\n'
                '# SPDX-License-Identifier: GPL-3.0-or-later\n'
                'msgid ""\nmsgstr ""\n'
                '"Project-Id-Version: seismo\\n"\n'
                '"Content-Type: text/plain; charset=UTF-8\\n"\n'
                '"Content-Transfer-Encoding: 8bit\\n"\n\n')
        for text in order:
            refs = seen[text]
            f.write('#. [%s] %s\n' % (refs[0][1], refs[0][2]))
            f.write('#: %s\n' % ' '.join(r[0] for r in refs[:4]))
            f.write('msgid "%s"\nmsgstr ""\n\n' % po_escape(text).replace('\\\\n', '\\n'))


if __name__ == '__main__':
    main()
