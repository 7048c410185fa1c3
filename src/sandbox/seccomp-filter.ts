/**
 * The seccomp program that closes unix sockets inside the box: `socket(AF_UNIX, …)` fails with EPERM, everything
 * else is allowed. Built here as classic BPF (bubblewrap's `--seccomp FD` reads the raw `struct sock_filter`
 * array), so no compiled helper ships with mca. x86-64 (its x32 system calls refused as a whole) and arm64 are
 * filtered; on another architecture the program allows everything and the box's status says unix sockets are open.
 * `socketpair` stays allowed: it connects nothing outside the process tree.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const NR_SOCKET_X86_64 = 41;
const NR_SOCKET_AARCH64 = 198;
const AF_UNIX = 1;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;

/** [code, jt, jf, k]; jumps are relative to the next instruction. */
const PROGRAM: ReadonlyArray<readonly [number, number, number, number]> = [
  /* 0 */ [LD_W_ABS, 0, 0, 4], // arch
  /* 1 */ [JEQ_K, 0, 3, AUDIT_ARCH_X86_64], // → 2, else → 5
  /* 2 */ [LD_W_ABS, 0, 0, 0], // nr
  /* 3 */ [JGE_K, 7, 0, X32_SYSCALL_BIT], // x32 → 11
  /* 4 */ [JEQ_K, 3, 5, NR_SOCKET_X86_64], // → 8, else → 10
  /* 5 */ [JEQ_K, 0, 4, AUDIT_ARCH_AARCH64], // → 6, else → 10
  /* 6 */ [LD_W_ABS, 0, 0, 0], // nr
  /* 7 */ [JEQ_K, 0, 2, NR_SOCKET_AARCH64], // → 8, else → 10
  /* 8 */ [LD_W_ABS, 0, 0, 16], // args[0], low word (little-endian)
  /* 9 */ [JEQ_K, 1, 0, AF_UNIX], // → 11, else → 10
  /* 10 */ [RET_K, 0, 0, RET_ALLOW],
  /* 11 */ [RET_K, 0, 0, RET_ERRNO_EPERM],
];

/** Whether the program filters on this machine's architecture. */
export function filtersHere(): boolean {
  return process.arch === 'x64' || process.arch === 'arm64';
}

/** The program as bubblewrap reads it (little-endian `struct sock_filter` entries of 8 bytes). */
export function unixSocketFilter(): Buffer {
  const out = Buffer.alloc(PROGRAM.length * 8);
  PROGRAM.forEach(([code, jt, jf, k], index) => {
    out.writeUInt16LE(code, index * 8);
    out.writeUInt8(jt, index * 8 + 2);
    out.writeUInt8(jf, index * 8 + 3);
    out.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return out;
}
