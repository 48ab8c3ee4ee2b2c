//! A persistent session: variables survive between runs, `reset` clears them, and the stores outlive
//! both. `cargo run --release --example session`.

use toolplane::{Config, Toolplane};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolplane::worker_main_if_requested();
    let runtime = Toolplane::new(Config::default()).unwrap();
    let session = runtime.session();

    let steps = [
        "import statistics\nsamples = [3, 1, 4, 1, 5, 9, 2, 6]",
        "def spread(xs):\n    return max(xs) - min(xs)",
        "return {'mean': statistics.mean(samples), 'spread': spread(samples)}",
        "h = await save_result(sorted(samples), label='sorted')\nh",
    ];
    let mut handle = String::new();
    for code in steps {
        let result = session.execute(code, None)?;
        if let Some(error) = result.error {
            return Err(format!("{}: {}", error.error_type, error.message).into());
        }
        println!(">>> {}\n{}", code.replace('\n', "\n... "), result.value);
        if let Some(h) = result.value_json().as_str() {
            handle = h.to_string();
        }
    }

    session.reset();
    let after = session.execute("return samples", None)?;
    let error = after.error.ok_or("the reset kept the variables")?;
    println!("after reset: {}: {}", error.error_type, error.message);
    // The store is the runtime's, not the session's: the saved value is still there.
    println!("still saved: {}", runtime.result_payload(&handle)?);
    Ok(())
}
