/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim for the kernel's 64-bit division helpers. */
#ifndef SHADOW_SHIM_LINUX_MATH64_H
#define SHADOW_SHIM_LINUX_MATH64_H
#include <linux/types.h>
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}
#endif
