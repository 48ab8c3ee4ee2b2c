fn main() -> std::process::ExitCode {
    toolplane::cli::main()
}
