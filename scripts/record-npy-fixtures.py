#!/usr/bin/env python3
# record-npy-fixtures.py - writes tests/fixtures/npy/: small .npy files, NumPy-made and hand-made with
# hostile headers, and verdicts.txt, what NumPy's np.load (the oracle) does with each:
#   NAME ok KIND RANK D0 D1 D2 VALUES...   np.load reads it and gpuc must give these values (KIND f/i:
#                                           float32 or int32 after gpuc's conversion)
#   NAME unusable                          np.load reads it, gpuc cannot use it (dtype, rank, empty,
#                                           Fortran order): gpuc must refuse it as bad input
#   NAME refuse                            np.load refuses it: so must gpuc
# Run from the repository root with NumPy installed (Debian: python3-numpy): python3 scripts/record-npy-fixtures.py
import io, os, re, struct, sys
import numpy as np

OUT = 'tests/fixtures/npy'
os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    os.remove(os.path.join(OUT, f))
lines = []

# What gpuc reads: descr as NumPy writes plain numbers, 1-3 dimensions, none 0, C order (or one
# dimension over 1).
GPUC_DESCR = re.compile(r'^[<>=|]?([fiub])(\d+)$')
def gpuc_can(descr, shape, fortran):
    m = GPUC_DESCR.match(descr) if isinstance(descr, str) else None
    if not m:
        return False
    kind, size = m.group(1), int(m.group(2))
    if not ((kind == 'f' and size in (4, 8)) or (kind == 'b' and size == 1) or (kind in 'iu' and size in (1, 2, 4, 8))):
        return False
    if not 1 <= len(shape) <= 3 or 0 in shape:
        return False
    return not fortran or sum(d > 1 for d in shape) <= 1

def record(name, data):
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(data)
    try:
        a = np.load(os.path.join(OUT, name))
    except Exception:
        lines.append('%s refuse' % name)
        return
    d = header_dict(data)
    if not gpuc_can(d['descr'], a.shape, d['fortran_order']):
        lines.append('%s unusable' % name)
        return
    flat = a.ravel(order='K' if d['fortran_order'] else 'C')
    if a.dtype.kind == 'f':
        vals = ['%r' % float(np.float32(v)) for v in flat]
        kind = 'f'
    else:
        if any(int(v) < -2**31 or int(v) >= 2**31 for v in flat):
            lines.append('%s refuse' % name)  # gpuc refuses ints outside int32
            return
        vals = ['%d' % int(v) for v in flat]
        kind = 'i'
    dims = list(a.shape) + [0] * (3 - a.ndim)
    lines.append('%s ok %s %d %s %s' % (name, kind, a.ndim, ' '.join(map(str, dims)), ' '.join(vals)))

def header_dict(data):
    f = io.BytesIO(data)
    version = np.lib.format.read_magic(f)
    shape, fortran, dtype = np.lib.format._read_array_header(f, version)
    f.seek(0)
    np.lib.format.read_magic(f)
    hlen = struct.unpack('<H' if version == (1, 0) else '<I', f.read(2 if version == (1, 0) else 4))[0]
    text = f.read(hlen).decode('latin1' if version < (3, 0) else 'utf8')
    from numpy.lib.format import _filter_header
    import ast
    return ast.literal_eval(_filter_header(text) if version < (3, 0) else text)

def npy(header, version=1, data=b''):
    h = header.encode('latin1' if version < 3 else 'utf8') if isinstance(header, str) else header
    if version == 1:
        pre = b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h))
    else:
        pre = b'\x93NUMPY' + bytes((version, 0)) + struct.pack('<I', len(h))
    return pre + h + data

# NumPy's own files: every dtype gpuc converts, both byte orders, the three format versions.
values = np.array([1.5, -2.25, 3.0, 1e-3, 65504.0, -7.0])
for descr in ['<f4', '>f4', '<f8', '>f8', '<i4', '>i4', '<i8', '>i8', '|i1', '|u1', '<i2', '>u2', '<u4', '|b1', '<f2']:
    a = (values * (1 if descr[1] in 'f' else 1)).astype(descr) if descr[1] != 'b' else np.array([1, 0, 1, 1, 0, 0], dtype='?')
    if descr[1] in 'iu':
        a = np.array([1, -2, 3, 100, -120, 7]).astype(descr) if descr[1] == 'i' else np.array([1, 2, 3, 250, 0, 7]).astype(descr)
    buf = io.BytesIO()
    np.save(buf, a.reshape(2, 3))
    record('np-%s.npy' % descr.replace('<', 'le-').replace('>', 'be-').replace('|', ''), buf.getvalue())
for version in [(1, 0), (2, 0), (3, 0)]:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.arange(8, dtype='<f4').reshape(2, 2, 2) / 4, version=version)
    record('np-v%d.npy' % version[0], buf.getvalue())
buf = io.BytesIO()
np.save(buf, np.asfortranarray(np.arange(6, dtype='<f4').reshape(2, 3)))
record('np-fortran.npy', buf.getvalue())
buf = io.BytesIO()
np.save(buf, np.float32(2.5))
record('np-0d.npy', buf.getvalue())
buf = io.BytesIO()
np.save(buf, np.zeros((0,), dtype='<f4'))
record('np-empty.npy', buf.getvalue())
buf = io.BytesIO()
np.save(buf, np.array([1, 2**40], dtype='<i8'))
record('np-i8-wide.npy', buf.getvalue())

# Hand-made headers: what Python's literal_eval and NumPy's checks take or refuse.
F4 = struct.pack('<2f', 1.5, 2.5)
S = "'descr': '<f4', 'fortran_order': False, 'shape': (2,)"
hostile = {
    'dup-key-last-wins': "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'descr': '<f4'}",
    'dup-shape': "{'descr': '<f4', 'fortran_order': False, 'shape': (7,), 'shape': (2,)}",
    'key-in-string': "{'x': \"'descr': '<f4'\", 'fortran_order': False, 'shape': (2,)}",
    'key-in-string-2': "{'descr': \"'shape': (2,)\", 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
    'falsehood': "{'descr': '<f4', 'fortran_order': Falsehood, 'shape': (2,)}",
    'fortran-zero': "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
    'fortran-1d': "{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}",
    'fortran-paren': "{'descr': '<f4', 'fortran_order': (False), 'shape': (2,)}",
    'extra-key': "{" + S + ", 'x': 1}",
    'missing-key': "{'descr': '<f4', 'shape': (2,)}",
    'not-dict': "[" + S.replace(':', ',') + "]",
    'paren-dict': "({" + S + "})",
    'trailing-commas': "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2,),}",
    'double-comma': "{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}",
    'shape-int': "{'descr': '<f4', 'fortran_order': False, 'shape': 2}",
    'shape-list': "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}",
    'shape-bool': "{'descr': '<f4', 'fortran_order': False, 'shape': (True, 2)}",
    'shape-float': "{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}",
    'shape-negative': "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}",
    'shape-minus-zero': "{'descr': '<f4', 'fortran_order': False, 'shape': (-0,)}",
    'shape-hex': "{'descr': '<f4', 'fortran_order': False, 'shape': (0x2,)}",
    'shape-underscore': "{'descr': '<f4', 'fortran_order': False, 'shape': (0_2,)}",
    'shape-leading-zero': "{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}",
    'shape-long': "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,)}",
    'shape-sum': "{'descr': '<f4', 'fortran_order': False, 'shape': (1+1,)}",
    'shape-plus': "{'descr': '<f4', 'fortran_order': False, 'shape': (+2,)}",
    'shape-double-minus': "{'descr': '<f4', 'fortran_order': False, 'shape': (--2,)}",
    'shape-grouped': "{'descr': '<f4', 'fortran_order': False, 'shape': ((2),)}",
    'shape-huge-int': "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
    'shape-empty': "{'descr': '<f4', 'fortran_order': False, 'shape': ()}",
    'shape-zero': "{'descr': '<f4', 'fortran_order': False, 'shape': (0,)}",
    'descr-f4': "{'descr': 'f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-pipe-f4': "{'descr': '|f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-be': "{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-name': "{'descr': 'float32', 'fortran_order': False, 'shape': (2,)}",
    'descr-space': "{'descr': ' <f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-bytes': "{'descr': b'<f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-escape': "{'descr': '\\x3cf4', 'fortran_order': False, 'shape': (2,)}",
    'descr-joined': "{'descr': '<' 'f4', 'fortran_order': False, 'shape': (2,)}",
    'descr-structured': "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}",
    'key-escape': "{'\\x64escr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'key-bytes': "{b'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'key-prefix': "{u'descr': '<f4', r'fortran_order': False, '''shape''': (2,)}",
    'key-bad-escape': "{'descr\\q': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'comment': "{'descr': '<f4', # a comment\n 'fortran_order': False, 'shape': (2,)}",
    'line-join': "{'descr': '<f4', \\\n'fortran_order': False, 'shape': (2,)}",
    'newline-in-string': "{'descr': '<f4\n', 'fortran_order': False, 'shape': (2,)}",
    'leading-spaces': "   {" + S + "}",
    'leading-newline': "\n{" + S + "}",
    'indented-line': " \n {" + S + "}",
    'trailing-text': "{" + S + "} x",
    'trailing-semicolon': "{" + S + "};",
    'trailing-newlines': "{" + S + "}\n\n  \n",
    'nul-padding': "{" + S + "}\0\0\0\n",
    'nbsp': "{'descr': '<f4',\xa0'fortran_order': False, 'shape': (2,)}",
    'tab-formfeed-cr': "{'descr':\t'<f4',\f'fortran_order': False,\r'shape': (2,)}\r\n",
    'f-string': "{f'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'set-value-dup': "{'descr': set(), 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'complex-value-dup': "{'shape': 1+2j, 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'ellipsis-value-dup': "{'shape': ..., 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
    'call-value': "{'descr': '<f4', 'fortran_order': bool(0), 'shape': (2,)}",
    'none-order': "{'descr': '<f4', 'fortran_order': None, 'shape': (2,)}",
    'long-header': "{" + S + "}" + " " * 10001 + "\n",
    'empty-header': "",
    'unterminated': "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)",
}
for name, text in hostile.items():
    # The data the header claims where NumPy reads it (so that only the header decides), else 8 bytes.
    try:
        shape, fortran, dtype = np.lib.format._read_array_header(io.BytesIO(npy(text)[8:]), (1, 0))
        data = np.arange(1, 1 + int(np.prod(shape)), dtype='<f8').astype(dtype).tobytes() if dtype.kind != 'V' else b''
    except Exception:
        data = F4
    record('h-%s.npy' % name, npy(text, 1, data))
# The format versions: 2.0 and 3.0 take a 4-byte header length, 3.0 UTF-8 text; 1.1 does not exist.
record('h-v2.npy', npy("{" + S + "}", 2, F4))
record('h-v3-utf8.npy', npy("{" + S + ", }# \u00e9\n", 3, F4))
record('h-v3-bad-utf8.npy', npy(b"{" + S.encode() + b"}# \xff\n", 3, F4))
record('h-v2-latin1.npy', npy(b"{" + S.encode() + b"}# \xff\n", 2, F4))
record('h-v1-1.npy', b'\x93NUMPY\x01\x01' + npy("{" + S + "}", 1, F4)[8:])
record('h-v4.npy', b'\x93NUMPY\x04\x00' + npy("{" + S + "}", 2, F4)[8:])
record('h-len-past-end.npy', b'\x93NUMPY\x01\x00\xff\x00' + ("{" + S + "}").encode() + F4)
# Sizes: the shape against the file's bytes and gpuc's cell limit, before any memory is taken. NumPy
# cannot read any of these (too short); np.load is not asked, as it would try to allocate them.
for name, text in {'size-2^48-cells': "{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 65536, 65536), }",
                   'size-16-GiB': "{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647,), }",
                   'size-one-short': "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"}.items():
    data = npy(text.ljust(118) + '\n', 1, F4)
    with open(os.path.join(OUT, 'h-%s.npy' % name), 'wb') as f:
        f.write(data)
    lines.append('h-%s.npy refuse' % name)
record('h-size-one-long.npy', npy("{" + S + "}", 1, F4 + b'\0\0\0\0'))  # NumPy reads the first 2 values
lines = [l for l in lines if not l.startswith('h-size-one-long.npy ')] + ['h-size-one-long.npy unusable']
with open(os.path.join(OUT, 'verdicts.txt'), 'w') as f:
    f.write('# np.load (NumPy %s) on each file; written by scripts/record-npy-fixtures.py\n' % np.__version__)
    f.write('\n'.join(lines) + '\n')
print(len(lines), 'files')
