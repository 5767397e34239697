/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: lets the module/core sources compile unchanged in user space for the
 * unit tests (the same trick as the kernel's tools/testing/vma).
 */
#ifndef SHADOW_SHIM_LINUX_TYPES_H
#define SHADOW_SHIM_LINUX_TYPES_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#endif
