/* Lane shuffles of GCC / clang vector-extension types with constant
 * indices.  The two compilers spell them differently: GCC's
 * __builtin_shuffle takes a mask vector (M, an integer vector type with a's
 * lane count and lane width), clang's __builtin_shufflevector the indices as
 * constant arguments (M unused).  Either way index i < N picks lane i of a,
 * N + i lane i of b (N lanes); the result has a's type.  Clang's one-vector
 * form names a twice: pass it a variable. */
#ifndef HDEM_VECTOR_H
#define HDEM_VECTOR_H

#if defined(__clang__)
  #define VEC_SHUFFLE(M, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
  #define VEC_PERMUTE(M, a, ...)    __builtin_shufflevector(a, a, __VA_ARGS__)
#elif defined(__GNUC__)
  #define VEC_SHUFFLE(M, a, b, ...) __builtin_shuffle(a, b, (M){__VA_ARGS__})
  #define VEC_PERMUTE(M, a, ...)    __builtin_shuffle(a, (M){__VA_ARGS__})
#else
  #error "hdem's vector code needs GCC's or clang's vector extensions"
#endif

/* A function compiled for AVX2 and for the build's -march, one picked at
 * load time (an ifunc).  Clang before 18 names an extern one's dispatcher
 * "<name>.ifunc", which callers in other files cannot reach (LLVM PR 71706):
 * there it is compiled once, for the build's -march (native by default, so
 * AVX2 where the machine has it). */
#if defined(__clang__) && __clang_major__ < 18
  #define VEC_CLONES
#else
  #define VEC_CLONES __attribute__((target_clones("avx2", "default")))
#endif

#endif
