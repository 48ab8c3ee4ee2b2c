//! Idle-time work that makes the zygote cheaper to fork, run from and exit: its heap (glibc's, and the
//! dense part of mimalloc's arena with the `mimalloc` feature), and the executable's code and read-only
//! data, are moved onto transparent huge pages.
//!
//! A fresh child's page faults are of two kinds: on the executable's file-backed pages, which `fork()`
//! does not copy (a child maps them again, fault by fault, and unmaps them at exit), and copy-on-write
//! faults on the heap; and `fork()` copies the page table of every anonymous 4 KiB page. With the heap on
//! 2 MiB pages `fork()` copies one entry per 2 MiB; with the image moved into anonymous huge pages a
//! child inherits its mappings and never faults on them. What that saves per run is in
//! docs/benchmarks.md (section 2).
//!
//! The move is done one 2 MiB chunk per idle step, so a fork request waits for at most one chunk
//! (a few ms). Nothing changes when the kernel offers no huge pages (`MADV_COLLAPSE` needs Linux 6.1):
//! a chunk that cannot be collapsed keeps, or gets back, its plain mapping.

use std::collections::VecDeque;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;

const HUGE_PAGE: usize = 2 << 20;
/// The most of the executable's read-only image the zygote copies onto huge pages.
const MAX_IMAGE_BYTES: usize = 96 << 20;

/// Why the zygote stays off huge pages, before asking the kernel: turned off, or no THP at all.
fn ruled_out() -> Option<String> {
    if std::env::var_os(super::protocol::NO_HUGE_PAGES_ENV).is_some() {
        return Some(format!(
            "off ({} is set)",
            super::protocol::NO_HUGE_PAGES_ENV
        ));
    }
    match std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled") {
        Ok(mode) if mode.contains("[never]") => {
            Some("no (transparent huge pages are disabled: [never])".into())
        }
        Ok(_) => None,
        Err(_) => Some("no (this kernel has no transparent huge pages)".into()),
    }
}

/// Whether a zygote started now would move onto huge pages, or why not (for `toolplane doctor`).
/// Tries a collapse of a scratch mapping of its own: the kernel's answer is the only reliable one.
#[cfg(feature = "cli")]
pub(crate) fn availability() -> Result<(), String> {
    if let Some(why) = ruled_out() {
        return Err(why);
    }
    // SAFETY: a private anonymous mapping of our own, written, advised and unmapped here.
    let failure = unsafe {
        let base = libc::mmap(
            std::ptr::null_mut(),
            2 * HUGE_PAGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if base == libc::MAP_FAILED {
            return Err("no (could not map scratch memory)".into());
        }
        let aligned = (base as usize).next_multiple_of(HUGE_PAGE);
        std::ptr::write_bytes(aligned as *mut u8, 1, HUGE_PAGE);
        let failure = (!collapse(aligned)).then(std::io::Error::last_os_error);
        libc::munmap(base, 2 * HUGE_PAGE);
        failure
    };
    match failure {
        None => Ok(()),
        Some(e) => Err(format!(
            "no (MADV_COLLAPSE failed: {e}; it needs Linux 6.1+ and a free 2 MiB page)"
        )),
    }
}

/// One 2 MiB-aligned piece of the zygote's memory to move onto a huge page.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Chunk {
    /// Anonymous memory (the malloc heap): collapsed in place.
    Heap { addr: usize },
    /// Read-only pages of the executable: copied into anonymous memory, which replaces the file
    /// mapping at the same address and is then collapsed. `offset` is the chunk's offset in the file,
    /// to map the file back if the collapse fails.
    Image { addr: usize, prot: i32, offset: u64 },
}

/// The chunks still to move, done one per [`HugePageTuner::step`].
pub(crate) struct HugePageTuner {
    chunks: VecDeque<Chunk>,
    /// The executable, to map a chunk back from if its collapse fails.
    exe: Option<File>,
}

impl HugePageTuner {
    /// Plans the move from `/proc/self/maps`; an empty plan where huge pages are off or unavailable.
    pub(crate) fn plan() -> Self {
        let mut tuner = HugePageTuner {
            chunks: VecDeque::new(),
            exe: None,
        };
        if ruled_out().is_some() {
            return tuner;
        }
        let (Ok(maps), Ok(exe)) = (
            std::fs::read_to_string("/proc/self/maps"),
            File::open("/proc/self/exe"),
        ) else {
            return tuner;
        };
        let Ok(meta) = exe.metadata() else {
            return tuner;
        };
        let image = (meta.dev(), meta.ino());
        // The heap first: a kernel without MADV_COLLAPSE shows there, before any image page moved.
        let mut heap = Vec::new();
        let mut code = Vec::new();
        for region in maps.lines().filter_map(Region::parse) {
            if region.is_anonymous_heap() {
                heap.extend(region.chunks().map(|addr| Chunk::Heap { addr }));
            } else if region.is_small_block_arena() {
                // Committed as used: only its dense part, where a collapse adds few zeroed pages.
                heap.extend(
                    region
                        .chunks()
                        .filter(|&addr| mostly_resident(addr))
                        .map(|addr| Chunk::Heap { addr }),
                );
            } else if region.file == Some(image) && cfg!(target_arch = "x86_64") {
                // Code is copied while it runs: the copy is exact and replaces the mapping atomically;
                // x86's instruction cache needs no flush for that (others are left alone).
                if let Some(prot) = region.read_only_prot() {
                    code.extend(region.chunks().map(|addr| Chunk::Image {
                        addr,
                        prot,
                        offset: region.offset + (addr - region.start) as u64,
                    }));
                }
            }
        }
        tuner.chunks.extend(heap);
        // The copy is private memory of the zygote: bounded, for an embedding application's larger
        // executable (toolplane's own moves ~32 MiB).
        if code.len() * HUGE_PAGE <= MAX_IMAGE_BYTES {
            tuner.chunks.extend(code);
        }
        tuner.exe = Some(exe);
        tuner
    }

    /// Whether chunks are left.
    pub(crate) fn pending(&self) -> bool {
        !self.chunks.is_empty()
    }

    /// Moves the next chunk. The first failed collapse ends the plan (no huge pages to be had now).
    pub(crate) fn step(&mut self) {
        let Some(chunk) = self.chunks.pop_front() else {
            return;
        };
        let moved = match chunk {
            Chunk::Heap { addr } => collapse(addr),
            Chunk::Image { addr, prot, offset } => match &self.exe {
                Some(exe) => move_image_chunk(addr, prot, exe, offset),
                None => false,
            },
        };
        if !moved {
            self.chunks.clear();
        }
        if self.chunks.is_empty() {
            self.exe = None;
        }
    }
}

/// A line of `/proc/self/maps`.
#[derive(Debug)]
struct Region<'a> {
    start: usize,
    end: usize,
    perms: &'a str,
    offset: u64,
    /// (device, inode) of a file mapping.
    file: Option<(u64, u64)>,
    path: &'a str,
}

impl<'a> Region<'a> {
    fn parse(line: &'a str) -> Option<Self> {
        let mut fields = line.split_whitespace();
        let (start, end) = fields.next()?.split_once('-')?;
        let perms = fields.next()?;
        let offset = u64::from_str_radix(fields.next()?, 16).ok()?;
        let (major, minor) = fields.next()?.split_once(':')?;
        let inode: u64 = fields.next()?.parse().ok()?;
        let path = fields.next().unwrap_or("");
        let file = (inode != 0).then(|| {
            let major = u32::from_str_radix(major, 16).unwrap_or(0);
            let minor = u32::from_str_radix(minor, 16).unwrap_or(0);
            (libc::makedev(major, minor), inode)
        });
        Some(Region {
            start: usize::from_str_radix(start, 16).ok()?,
            end: usize::from_str_radix(end, 16).ok()?,
            perms,
            offset,
            file,
            path,
        })
    }

    /// glibc's heap (brk): the interpreter's objects, or with mimalloc its blocks of 1 KiB and more.
    /// Other anonymous mappings are left alone but for mimalloc's arenas: a collapse fills a sparse
    /// 2 MiB range with zeroed pages.
    fn is_anonymous_heap(&self) -> bool {
        self.perms == "rw-p" && self.file.is_none() && self.path == "[heap]"
    }

    /// An arena of the allocator that holds small blocks (mimalloc's, with the `mimalloc` feature):
    /// most of the interpreter's objects.
    fn is_small_block_arena(&self) -> bool {
        self.perms == "rw-p"
            && self.file.is_none()
            && self.path.is_empty()
            && crate::vm::in_small_block_arena(self.start)
    }

    /// The protection of a private read-only (or read-execute) mapping; writable ones are never
    /// copied (another thread could write while the copy is made).
    fn read_only_prot(&self) -> Option<i32> {
        match self.perms {
            "r--p" => Some(libc::PROT_READ),
            "r-xp" => Some(libc::PROT_READ | libc::PROT_EXEC),
            _ => None,
        }
    }

    /// Start addresses of the whole 2 MiB pages inside the region.
    fn chunks(&self) -> impl Iterator<Item = usize> + use<> {
        let first = self.start.next_multiple_of(HUGE_PAGE);
        let end = self.end / HUGE_PAGE * HUGE_PAGE;
        (first..end).step_by(HUGE_PAGE)
    }
}

/// Whether at least three quarters of the 2 MiB at `addr` are resident.
fn mostly_resident(addr: usize) -> bool {
    const PAGES: usize = HUGE_PAGE / 4096;
    let mut resident = [0u8; PAGES];
    // SAFETY: `addr` starts a 2 MiB range of this process's own mapping; the vector has one byte per
    // 4 KiB page of it.
    let known = unsafe {
        libc::mincore(
            addr as *mut libc::c_void,
            HUGE_PAGE,
            resident.as_mut_ptr().cast(),
        )
    } == 0;
    known && resident.iter().filter(|page| *page & 1 == 1).count() * 4 >= PAGES * 3
}

fn collapse(addr: usize) -> bool {
    // SAFETY: advice on a range of this process's own mapped memory; contents are unchanged.
    unsafe { libc::madvise(addr as *mut libc::c_void, HUGE_PAGE, libc::MADV_COLLAPSE) == 0 }
}

/// Replaces a read-only file-backed chunk by an exact anonymous copy on a huge page; on failure the
/// chunk is (or is again) the file mapping.
fn move_image_chunk(addr: usize, prot: i32, exe: &File, offset: u64) -> bool {
    // SAFETY: a fresh private anonymous mapping that nothing else refers to.
    let copy = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            HUGE_PAGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if copy == libc::MAP_FAILED {
        return false;
    }
    // SAFETY: `addr` is a readable mapped chunk of HUGE_PAGE bytes (from /proc/self/maps, read-only, so
    // nothing writes it meanwhile); `copy` is our own fresh mapping of the same size.
    unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, copy.cast::<u8>(), HUGE_PAGE) };
    // SAFETY: `copy` is ours; on success mremap atomically puts the identical bytes, with the same
    // protection, where the file mapping was (code running from it continues unchanged).
    let moved = unsafe {
        libc::mprotect(copy, HUGE_PAGE, prot) == 0
            && libc::mremap(
                copy,
                HUGE_PAGE,
                HUGE_PAGE,
                libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                addr as *mut libc::c_void,
            ) != libc::MAP_FAILED
    };
    if !moved {
        // SAFETY: our own mapping, not moved.
        unsafe { libc::munmap(copy, HUGE_PAGE) };
        return false;
    }
    if collapse(addr) {
        return true;
    }
    // Anonymous 4 KiB pages would make every fork copy their page table: map the file back.
    // SAFETY: replaces our anonymous copy by the same bytes from the executable, as it was mapped.
    unsafe {
        libc::mmap(
            addr as *mut libc::c_void,
            HUGE_PAGE,
            prot,
            libc::MAP_PRIVATE | libc::MAP_FIXED,
            exe.as_raw_fd(),
            offset as libc::off_t,
        );
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lines_parse_into_regions_and_chunks() {
        let line =
            "563b96712000-563b97a00000 r-xp 0112c000 fe:00 5312071    /usr/bin/toolplane (deleted)";
        let region = Region::parse(line).unwrap();
        assert_eq!(region.start, 0x563b96712000);
        assert_eq!(region.offset, 0x112c000);
        assert_eq!(region.file, Some((libc::makedev(0xfe, 0), 5312071)));
        assert_eq!(
            region.read_only_prot(),
            Some(libc::PROT_READ | libc::PROT_EXEC)
        );
        assert!(!region.is_anonymous_heap());
        let chunks: Vec<usize> = region.chunks().collect();
        // 0x563b96800000 up to (not including) 0x563b97a00000: 9 whole 2 MiB pages.
        assert_eq!(chunks.len(), 9);
        assert_eq!(chunks[0], 0x563b96800000);

        let heap =
            Region::parse("5647ba09f000-5647bb809000 rw-p 00000000 00:00 0   [heap]").unwrap();
        assert!(heap.is_anonymous_heap());
        assert_eq!(heap.read_only_prot(), None);
        assert_eq!(heap.chunks().count(), 11);
        let anon = Region::parse("7f0000000000-7f0000400000 rw-p 00000000 00:00 0").unwrap();
        assert!(!anon.is_anonymous_heap());
        assert_eq!(anon.chunks().count(), 2);
        let small =
            Region::parse("7f0000001000-7f0000003000 r--p 00000000 fe:00 12 /lib/x.so").unwrap();
        assert_eq!(small.chunks().count(), 0);
    }

    /// The dense part of mimalloc's arena is planned for a move, as glibc's heap is; its empty part
    /// is not.
    #[cfg(feature = "mimalloc")]
    #[test]
    fn the_dense_part_of_the_small_block_arena_is_planned() {
        if let Some(why) = ruled_out() {
            return eprintln!("huge pages {why}: not checked");
        }
        // 4 MiB of small blocks, written so that their pages are resident.
        let blocks: Vec<*mut u8> = (0..65_536)
            .map(|_| {
                // SAFETY: a 64-byte block from mimalloc, written within its size below.
                let block = unsafe { libmimalloc_sys::mi_malloc(64) }.cast::<u8>();
                assert!(!block.is_null());
                // SAFETY: within the block.
                unsafe { std::ptr::write_bytes(block, 1, 64) };
                block
            })
            .collect();
        let planned: Vec<usize> = HugePageTuner::plan()
            .chunks
            .iter()
            .filter_map(|chunk| match chunk {
                Chunk::Heap { addr } if crate::vm::in_small_block_arena(*addr) => Some(*addr),
                _ => None,
            })
            .collect();
        let in_use = |chunk: usize| {
            blocks
                .iter()
                .any(|b| (*b as usize).abs_diff(chunk + HUGE_PAGE / 2) < HUGE_PAGE / 2)
        };
        assert!(!planned.is_empty(), "no chunk of the arena planned");
        assert!(
            planned
                .iter()
                .all(|chunk| mostly_resident(*chunk) && in_use(*chunk))
        );
        for block in blocks {
            // SAFETY: each block came from mi_malloc and is freed once.
            unsafe { libmimalloc_sys::mi_free(block.cast()) };
        }
    }

    /// The move itself, on a private copy of this test binary's own code: after it the bytes are the
    /// same and the code still runs.
    #[test]
    fn a_moved_image_chunk_keeps_its_bytes() {
        let mut tuner = HugePageTuner::plan();
        let Some(Chunk::Image { addr, .. }) = tuner
            .chunks
            .iter()
            .copied()
            .find(|c| matches!(c, Chunk::Image { .. }))
        else {
            return; // no huge pages here: nothing to move
        };
        let before: Vec<u8> =
            // SAFETY: a mapped read-only chunk of this process's executable.
            unsafe { std::slice::from_raw_parts(addr as *const u8, HUGE_PAGE) }.to_vec();
        tuner
            .chunks
            .retain(|c| matches!(c, Chunk::Image { addr: a, .. } if *a == addr));
        tuner.step();
        // SAFETY: still mapped (moved or mapped back), same size.
        let after = unsafe { std::slice::from_raw_parts(addr as *const u8, HUGE_PAGE) };
        assert!(before == after, "the chunk's bytes changed");
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        let region = maps
            .lines()
            .filter_map(Region::parse)
            .find(|r| r.start <= addr && addr < r.end)
            .unwrap();
        assert!(
            region.read_only_prot().is_some(),
            "protection changed: {}",
            region.perms
        );
        assert_eq!(format!("{}", 6 * 7), "42");
    }
}
