/// Makes `[limits] max_memory_mb` effective for in-process runs (see `toolplane::CountingAllocator`).
#[global_allocator]
static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;

fn main() -> std::process::ExitCode {
    toolplane::cli::main()
}
