//! The simulated address map of [`AddrMode::Flat`](crate::AddrMode::Flat) accesses: where each global buffer
//! and the shared and local windows of the generic address space lie.
//!
//! The high 32 bits of a generic address are its window (`tag`), the low 32 bits the byte offset in it:
//! buffer `k` (in [`Program::buffers`](crate::Program::buffers) order) at `(k + 1) << 32`, the block's shared
//! memory at [`SHARED_WINDOW`], the thread's local memory at [`LOCAL_WINDOW`]. Address 0 and the first 4 GiB
//! are no buffer's, so a null pointer faults. A global address is a generic address (as on NVIDIA GPUs,
//! `cvta.to.global` changes nothing); a shared or local address is the offset in its window.

/// Windows of the generic address space are `1 << 32` bytes apart.
pub const WINDOW_BITS: u32 = 32;

/// The generic address of the block's shared memory (offset 0).
pub const SHARED_WINDOW: u64 = 0x1_0000 << WINDOW_BITS;

/// The generic address of the thread's local memory (offset 0).
pub const LOCAL_WINDOW: u64 = 0x1_0001 << WINDOW_BITS;

/// The most global buffers a program may have (their windows lie below [`SHARED_WINDOW`]).
pub const MAX_BUFFERS: usize = 0xffff;

/// The address of byte 0 of buffer `k`.
pub const fn buffer_base(k: usize) -> u64 {
    (k as u64 + 1) << WINDOW_BITS
}

/// What a generic address names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Buffer `k`, at a byte offset.
    Buffer(usize, u64),
    /// The block's shared memory, at a byte offset.
    Shared(u64),
    /// The thread's local memory, at a byte offset.
    Local(u64),
    /// No memory (below the first buffer, or past the last window).
    None,
}

/// Decode a generic address.
pub const fn window(address: u64) -> Window {
    let tag = address >> WINDOW_BITS;
    let offset = address & ((1 << WINDOW_BITS) - 1);
    if tag == SHARED_WINDOW >> WINDOW_BITS {
        Window::Shared(offset)
    } else if tag == LOCAL_WINDOW >> WINDOW_BITS {
        Window::Local(offset)
    } else if tag >= 1 && tag <= MAX_BUFFERS as u64 {
        Window::Buffer(tag as usize - 1, offset)
    } else {
        Window::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_round_trip() {
        assert_eq!(window(buffer_base(0) + 12), Window::Buffer(0, 12));
        assert_eq!(window(buffer_base(MAX_BUFFERS - 1)), Window::Buffer(MAX_BUFFERS - 1, 0));
        assert_eq!(window(SHARED_WINDOW + 4), Window::Shared(4));
        assert_eq!(window(LOCAL_WINDOW + 0xffff_fffc), Window::Local(0xffff_fffc));
        assert_eq!(window(0), Window::None);
        assert_eq!(window(0xffff_ffff), Window::None);
        assert_eq!(window(LOCAL_WINDOW + (1 << 32)), Window::None);
    }
}
