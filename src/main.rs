fn main() {
    std::process::exit(duet_rs::cli::main());
}
