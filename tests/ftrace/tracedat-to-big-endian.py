#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tracedat-to-big-endian.py [--broken-events] IN.dat OUT.dat
#
# --broken-events leaves the event records as they were: a file whose records no reader can make
# sense of, for the test that such a file is refused rather than shown empty.
# Writes a little-endian trace.dat (version 6 or 7, as trace-cmd writes it) as the big-endian file a
# big-endian machine would have written: the endianness flag, every number of the headers, the
# options and the CPU tables, the ring-buffer page headers, the event headers (whose type_len and
# time_delta bit fields sit the other way round on big-endian machines) and every event field, as
# the event's own format (offset, size, array, __data_loc) lays it out. Same size, same offsets:
# only byte order changes. The test that uses it (test-tracedat-endian.sh) checks that Seismo and
# trace-cmd report the same events for both files.
#
# Version 7 files must be uncompressed (trace-cmd convert --compression none). Not handled (the
# tool says so and fails): compressed sections, and options whose binary layout it does not know. trace_printk's bprint arguments are swapped as 32-bit words,
# which is right for every argument but 64-bit ones.
import re
import struct
import sys


class Fail(Exception):
    pass


class Conv:
    def __init__(self, data):
        self.src = data
        self.out = bytearray(data)
        self.pos = 0
        self.formats = {}       # event id -> [(declaration, offset, size)]
        self.broken_events = False
        self.version = 6
        self.sections = {}      # v7: option id -> offset of its section
        self.next_options = 0

    # --- reading little-endian, writing big-endian at the same place ---
    def u(self, size, fmt_le, fmt_be, at=None):
        p = self.pos if at is None else at
        if p + size > len(self.src):
            raise Fail('truncated at %d' % p)
        v = struct.unpack_from(fmt_le, self.src, p)[0]
        struct.pack_into(fmt_be, self.out, p, v)
        if at is None:
            self.pos += size
        return v

    def u16(self, at=None):
        return self.u(2, '<H', '>H', at)

    def u32(self, at=None):
        return self.u(4, '<I', '>I', at)

    def u64(self, at=None):
        return self.u(8, '<Q', '>Q', at)

    def raw(self, n):
        b = self.src[self.pos:self.pos + n]
        self.pos += n
        return b

    def cstr(self):
        end = self.src.index(b'\0', self.pos)
        s = self.src[self.pos:end].decode('latin-1')
        self.pos = end + 1
        return s

    # --- event formats ---
    def add_format(self, text):
        text = text.decode('latin-1')
        m = re.search(r'^ID:\s*(\d+)', text, re.M)
        if not m:
            return
        fields = []
        for f in re.finditer(r'field:([^;]*);\s*offset:(\d+);\s*size:(\d+);\s*(?:signed:(\d+);)?',
                             text):
            decl = f.group(1).strip()
            fields.append((decl, int(f.group(2)), int(f.group(3))))
        self.formats[int(m.group(1))] = fields

    def swap_elems(self, start, length, elem):
        if elem not in (2, 4, 8):
            return
        fmt = {2: 'H', 4: 'I', 8: 'Q'}[elem]
        for p in range(start, start + length - length % elem, elem):
            self.u(elem, '<' + fmt, '>' + fmt, p)

    def swap_event(self, base, length):
        if length < 2 or self.broken_events:
            return
        etype = struct.unpack_from('<H', self.src, base)[0]
        fields = self.formats.get(etype)
        if fields is None:
            raise Fail('event type %d has no format' % etype)
        for i, (decl, off, size) in enumerate(fields):
            last_array = i == len(fields) - 1 and decl.endswith(']')
            if off + size > length and not last_array:
                continue
            is_char = re.search(r'\bchar\b', decl) is not None or 'u8 ' in decl or 's8 ' in decl
            m = re.search(r'\[(\d*)\]\s*$', decl)
            if decl.startswith('__data_loc') or decl.startswith('__rel_loc'):
                loc = struct.unpack_from('<I', self.src, base + off)[0]
                self.u32(base + off)
                doff, dlen = loc & 0xffff, loc >> 16
                if decl.startswith('__rel_loc'):
                    doff += off + 4
                if not is_char:
                    elem = {'short': 2, 'int': 4, 'u32': 4, 's32': 4, 'long': self.long_size,
                            'u64': 8, 's64': 8}
                    es = next((v for k, v in elem.items() if re.search(r'\b%s\b' % k, decl)), 0)
                    self.swap_elems(base + doff, min(dlen, length - doff), es)
            elif m:
                if is_char:
                    continue
                n = int(m.group(1)) if m.group(1) else 0
                es = size // n if n else (4 if re.search(r'\bu32\b|\bint\b', decl) else
                                          self.long_size)
                # The last array runs to the end of the record (kernel_stack writes as many
                # callers as it has, bprint as many argument words).
                span = length - off if i == len(fields) - 1 else size
                self.swap_elems(base + off, span, es)
            elif size in (2, 4, 8):
                self.swap_elems(base + off, size, size)

    # --- ring-buffer pages ---
    def swap_page(self, start):
        ps = self.page_size
        self.u64(start)                                   # timestamp
        commit = self.u(self.commit_size, '<Q' if self.commit_size == 8 else '<I',
                        '>Q' if self.commit_size == 8 else '>I', start + 8)
        size = commit & ((1 << 27) - 1)
        p = start + self.data_off
        end = min(p + size, start + ps)
        while p + 4 <= end:
            w = struct.unpack_from('<I', self.src, p)[0]
            type_len, delta = w & 31, w >> 5
            struct.pack_into('>I', self.out, p, (type_len << 27) | delta)
            if type_len == 0:
                ln = self.u32(p + 4) - 4
                ln = (ln + 3) & ~3
                self.swap_event(p + 8, ln)
                p += 8 + ln
            elif type_len <= 28:
                self.swap_event(p + 4, type_len * 4)
                p += 4 + type_len * 4
            elif type_len == 29:
                if delta == 0 or p + 8 > end:
                    break
                p += 4 + self.u32(p + 4)
            else:
                self.u32(p + 4)
                p += 8

    def cpu_table(self, n_cpus):
        cpus = []
        for _ in range(n_cpus):
            off, size = self.u64(), self.u64()
            cpus.append((off, size))
        return cpus

    def options(self):
        """Version 6: the options up to DONE. Version 7: one options section's; DONE holds the
        next section's offset (returned in self.next_options)."""
        buffers = []
        has_clock = False
        while True:
            oid = self.u16()
            if oid == 0 and self.version == 6:
                return buffers, has_clock
            size = self.u32()
            start = self.pos
            if oid == 0:                                  # DONE (v7): next options section
                self.next_options = self.u64()
                return buffers, has_clock
            if oid == 3 and self.version == 7:            # BUFFER: where, name, clock, CPUs
                off = self.u64()
                self.cstr()
                self.cstr()
                self.u32()
                cpus = []
                for _ in range(self.u32()):
                    self.u32()
                    cpus.append((self.u64(), self.u64()))
                buffers.append((off, cpus))
            elif oid == 22 and self.version == 7:
                raise Fail('latency (text) buffers: nothing to convert')
            elif oid in (16, 17, 18, 19, 20, 21) and self.version == 7:
                self.sections[oid] = self.u64()           # where that section is
            elif oid == 3:                                # BUFFER (v6): u64 offset, name
                buffers.append(self.u64())
            elif oid == 8:                                # CPUCOUNT
                self.u32()
            elif oid == 11:                               # TRACEID
                self.u64()
            elif oid == 14:                               # TSC2NSEC: mult, shift, offset
                self.u32()
                self.u32()
                self.u64()
            elif oid == 4:
                has_clock = True
            elif oid not in (1, 2, 5, 6, 7, 9, 10, 15):   # text options, strings
                raise Fail('option %d: binary layout unknown to this tool' % oid)
            self.pos = start + size

    def run(self):
        if self.src[:3] != b'\x17\x08\x44' or self.src[3:10] != b'tracing':
            raise Fail('not a trace.dat')
        self.pos = 10
        version = self.cstr()
        if version not in ('6', '7'):
            raise Fail('version %s: only versions 6 and 7 are converted' % version)
        self.version = int(version)
        if self.src[self.pos] != 0:
            raise Fail('already big-endian')
        self.out[self.pos] = 1
        self.long_size = self.src[self.pos + 1]
        self.pos += 2
        self.page_size = self.u32()
        if self.version == 7:
            return self.run_v7()
        self.headers()
        self.formats_and_more()
        n_cpus = self.u32()
        return self.run_v6(n_cpus)

    def section(self, want):
        """A v7 section header at self.pos; the content must be uncompressed."""
        sid, flags = self.u16(), self.u16()
        self.u32()
        size = self.u64()
        if want is not None and sid != want:
            raise Fail('section id %d, expected %d' % (sid, want))
        if flags & 1:
            raise Fail('compressed section: convert with --compression none first')
        return size

    def run_v7(self):
        comp = self.cstr()
        self.cstr()
        if comp != 'none':
            raise Fail('compressed with %s: convert with --compression none first' % comp)
        self.sections = {}
        self.next_options = self.u64()
        buffers = []
        while self.next_options:
            self.pos = self.next_options
            self.next_options = 0
            self.section(0)
            buffers += self.options()[0]
        for oid, fn in ((16, self.headers), (17, self.ftrace_formats), (18, self.event_formats),
                        (19, lambda: self.raw(self.u32())), (20, lambda: self.raw(self.u32())),
                        (21, lambda: self.raw(self.u64()))):
            if oid in self.sections:
                self.pos = self.sections[oid]
                self.section(oid)
                fn()
        if 16 not in self.sections:
            raise Fail('no header info section')
        for off, cpus in buffers:
            self.pos = off
            self.section(None)
            for coff, csize in cpus:
                for page in range(coff, coff + csize, self.page_size):
                    self.swap_page(page)
        return self.out

    def ftrace_formats(self):
        for _ in range(self.u32()):
            self.add_format(self.raw(self.u64()))

    def event_formats(self):
        for _ in range(self.u32()):
            self.cstr()
            for _ in range(self.u32()):
                self.add_format(self.raw(self.u64()))

    def formats_and_more(self):
        self.ftrace_formats()
        self.event_formats()
        self.raw(self.u32())                              # kallsyms
        self.raw(self.u32())                              # printk formats
        self.raw(self.u64())                              # cmdlines

    def headers(self):
        if self.raw(12) != b'header_page\0':
            raise Fail('no header_page')
        hp = self.raw(self.u64()).decode('latin-1')
        m = re.search(r'commit;\s*offset:(\d+);\s*size:(\d+)', hp)
        d = re.search(r'data;\s*offset:(\d+);', hp)
        self.commit_size = int(m.group(2)) if m else self.long_size
        self.data_off = int(d.group(1)) if d else 8 + self.commit_size
        if self.raw(13) != b'header_event\0':
            raise Fail('no header_event')
        self.raw(self.u64())

    def run_v6(self, n_cpus):
        tables = []
        tag = self.raw(10)
        buffers, has_clock = [], False
        if tag == b'options  \0':
            buffers, has_clock = self.options()
            tag = self.raw(10)
        if tag != b'flyrecord\0':
            raise Fail('no flyrecord (latency files are text: nothing to convert)')
        tables.append(self.cpu_table(n_cpus))
        if has_clock:
            self.raw(self.u64())
        for off in buffers:
            self.pos = off
            tag = self.raw(10)
            if tag == b'options  \0':
                self.options()
                tag = self.raw(10)
            if tag != b'flyrecord\0':
                raise Fail('buffer at %d: no flyrecord' % off)
            tables.append(self.cpu_table(n_cpus))

        for table in tables:
            for off, size in table:
                for page in range(off, off + size, self.page_size):
                    self.swap_page(page)
        return self.out


def main():
    args = sys.argv[1:]
    broken = args[:1] == ['--broken-events']
    src, dst = args[1:3] if broken else args[0:2]
    with open(src, 'rb') as f:
        data = f.read()
    try:
        conv = Conv(data)
        conv.broken_events = broken
        out = conv.run()
    except Fail as e:
        print('%s: %s' % (src, e), file=sys.stderr)
        sys.exit(1)
    with open(dst, 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main()
