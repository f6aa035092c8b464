#!/usr/bin/env python3
"""Where the .wasm's bytes are: code size per function, summed by namespace / class / template.

Needs a name section: relink with `cmake -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs build-wasm`
(and back with an empty value). Usage: wasm_sizes.py FILE.wasm [--top N] [--groups N]
No wasm-objdump on these machines: the binary is read here (sections, code bodies, names).
"""
import argparse
import collections
import re
import subprocess


def leb(b, i):
    result = shift = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return result, i


def read(path):
    """Section sizes, code body sizes in function order, function names by index."""
    b = open(path, 'rb').read()
    i, imported, bodies, names, sections = 8, 0, [], {}, collections.Counter()
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        end = i + size
        sections[sid] += size
        if sid == 2:  # imports: functions among them shift the indices
            n, j = leb(b, i)
            for _ in range(n):
                for _ in range(2):
                    length, j = leb(b, j)
                    j += length
                kind = b[j]
                j += 1
                if kind == 0:
                    _, j = leb(b, j)
                    imported += 1
                elif kind in (1, 2):  # table (type byte first) or memory: limits
                    j += 1 if kind == 1 else 0
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 3:
                    j += 2
                elif kind == 4:
                    _, j = leb(b, j + 1)
        elif sid == 10:
            n, j = leb(b, i)
            for _ in range(n):
                length, j = leb(b, j)
                bodies.append(length)
                j += length
        elif sid == 0:
            length, j = leb(b, i)
            if b[j:j + length] == b'name':
                j += length
                while j < end:
                    sub = b[j]
                    sub_size, j = leb(b, j + 1)
                    if sub == 1:
                        n, k = leb(b, j)
                        for _ in range(n):
                            index, k = leb(b, k)
                            length, k = leb(b, k)
                            names[index] = b[k:k + length].decode(errors='replace')
                            k += length
                    j += sub_size
        i = end
    return sections, [(names.get(imported + k, f'func{imported + k}'), s) for k, s in enumerate(bodies)]


def own_name(demangled):
    """The function's qualified name: no return type, no parameters, no template arguments."""
    demangled = demangled.replace('(anonymous namespace)::', '')
    depth, start = 0, 0
    for i, c in enumerate(demangled):
        if c == '(' and depth == 0 and i > 0:
            demangled = demangled[:i]
            break
        if c == '<':
            depth += 1
        elif c == '>':
            depth -= 1
        elif c == ' ' and depth == 0:
            start = i + 1
    name = demangled[start:] if '::' in demangled[start:] else demangled
    return re.sub(r'<.*>', '<>', name)


def group(name):
    if 'nlohmann' in name:
        m = re.search(r'nlohmann::json_abi[^:]*::(?:detail::)?(\w+)', name)
        return 'nlohmann::' + (m.group(1) if m else '?')
    parts = name.split('::')
    if parts[0] == 'commlab':
        return 'commlab::' + parts[1] if len(parts) > 1 else name
    if parts[0] == 'std':
        return 'std::' + (parts[2] if len(parts) > 2 and parts[1] == '__2' else parts[1])
    return '(C) ' + name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('wasm')
    ap.add_argument('--top', type=int, default=30)
    ap.add_argument('--groups', type=int, default=40)
    args = ap.parse_args()
    sections, funcs = read(args.wasm)
    demangled = subprocess.run(['c++filt'], input='\n'.join(n for n, _ in funcs), capture_output=True,
                               text=True).stdout.split('\n')
    print(f"code {sections[10]} B, data {sections[11]} B, custom (names) {sections[0]} B; {len(funcs)} functions")
    groups, counts = collections.Counter(), collections.Counter()
    for d, (_, size) in zip(demangled, funcs):
        g = group(own_name(d))
        groups[g] += size
        counts[g] += 1
    for g, size in groups.most_common(args.groups):
        print(f'{size:8d} B {counts[g]:5d} fn  {g}')
    print()
    for d, (_, size) in sorted(zip(demangled, funcs), key=lambda x: -x[1][1])[:args.top]:
        print(f'{size:8d} B  {own_name(d)}')


if __name__ == '__main__':
    main()
