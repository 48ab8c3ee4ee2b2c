//! Reading /proc for the soak test and the benchmark (included by both with `#[path]`).

#![allow(dead_code)]

/// A `Key:   123 kB` field of a /proc file, in KiB.
fn field_kib(path: &str, key: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// This process's resident set size.
pub fn rss_kib() -> u64 {
    field_kib("/proc/self/status", "VmRSS:")
}

/// Proportional set size of a process: its RSS with shared pages split among their sharers.
pub fn pss_kib(pid: u32) -> u64 {
    field_kib(&format!("/proc/{pid}/smaps_rollup"), "Pss:")
}

/// Live (not zombie) processes whose parent chain leads to this one.
pub fn descendants() -> Vec<u32> {
    descendants_of(std::process::id())
}

/// Live (not zombie) processes whose parent chain leads to `root`.
pub fn descendants_of(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command may hold spaces or parentheses: the fields after the last ')' are fixed.
            let mut rest = stat[stat.rfind(')')? + 2..].split_whitespace();
            let state = rest.next()?;
            let ppid = rest.next()?.parse().ok()?;
            (state != "Z").then_some((pid, ppid))
        })
        .collect();
    let mut found = vec![root];
    let mut grew = true;
    while grew {
        grew = false;
        for (pid, ppid) in &parents {
            if found.contains(ppid) && !found.contains(pid) {
                found.push(*pid);
                grew = true;
            }
        }
    }
    found.retain(|p| *p != root);
    found
}

/// Anonymous memory of a process mapped with transparent huge pages.
pub fn anon_huge_pages_kib(pid: u32) -> u64 {
    field_kib(&format!("/proc/{pid}/smaps_rollup"), "AnonHugePages:")
}

/// Descendants of this process started as toolplane zygotes (by their environment).
pub fn zygotes() -> Vec<u32> {
    descendants()
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .map(|env| {
                    env.split(|b| *b == 0)
                        .any(|v| v == b"TOOLPLANE_WORKER=zygote")
                })
                .unwrap_or(false)
        })
        .collect()
}
