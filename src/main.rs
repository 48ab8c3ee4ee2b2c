/// Makes `[limits] max_memory_mb` effective for in-process runs (see `toolplane::CountingAllocator`).
#[global_allocator]
static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;

fn main() -> std::process::ExitCode {
    // Started as a sandbox worker (process isolation), this serves and never returns.
    toolplane::worker_main_if_requested();
    toolplane::cli::main()
}
