//! A small "orders service" embedding toolplane: it registers two host tools, runs a model-written
//! snippet that loops over the orders, keeps the full rows out of the reply with `save_result`, and
//! returns a summary plus the handle. The host then reads the rows back itself.
//!
//! `cargo run --release --example embed`. Snippets run in worker processes forked from this very
//! executable (`worker_main_if_requested` makes it serve as its own worker).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolplane::schemars::JsonSchema;
use toolplane::{Capability, HostError, Isolation, Limits, Toolplane};

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "toolplane::schemars")]
struct ListOrders {
    /// Only orders with this status ("open" or "shipped").
    status: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(crate = "toolplane::schemars")]
struct GetOrder {
    /// The order id.
    id: u32,
}

#[derive(Serialize, Clone)]
struct Order {
    id: u32,
    status: &'static str,
    customer: &'static str,
    total: f64,
}

fn orders() -> Vec<Order> {
    let customers = ["ada", "grace", "linus", "barbara"];
    (1..=12)
        .map(|id| Order {
            id,
            status: if id % 3 == 0 { "shipped" } else { "open" },
            customer: customers[id as usize % customers.len()],
            total: f64::from(id) * 12.5,
        })
        .collect()
}

const SNIPPET: &str = r#"
ids = await orders_list(status="open")
# Calls dispatch when made: fetch every order at once, then collect them.
pending = [orders_get(id=i) for i in ids]
rows = [await p for p in pending]
handle = await save_result(rows, label="open orders")
by_customer = {}
for row in rows:
    by_customer[row["customer"]] = by_customer.get(row["customer"], 0) + row["total"]
print(f"fetched {len(rows)} open orders")
return {"count": len(rows), "total": sum(r["total"] for r in rows),
        "top_customer": max(by_customer, key=by_customer.get), "rows": handle}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // First thing: when this process is started as a sandbox worker, serve and never return.
    toolplane::worker_main_if_requested();

    let runtime = Toolplane::builder()
        .isolation(Isolation::Process)
        .limits(Limits::default().with_timeout(Duration::from_secs(10)))
        .tool(
            Capability::typed("orders/list", |args: ListOrders| {
                if args.status != "open" && args.status != "shipped" {
                    return Err(HostError::value(format!(
                        "unknown status {:?}",
                        args.status
                    )));
                }
                Ok(orders()
                    .into_iter()
                    .filter(|o| o.status == args.status)
                    .map(|o| o.id)
                    .collect::<Vec<_>>())
            })
            .description("Ids of the orders with a status"),
        )
        .tool(
            Capability::typed_async("orders/get", |args: GetOrder| async move {
                // A slow backend: the snippet's calls overlap.
                tokio::time::sleep(Duration::from_millis(20)).await;
                orders()
                    .into_iter()
                    .find(|o| o.id == args.id)
                    .ok_or_else(|| HostError::lookup(format!("no order {}", args.id)))
            })
            .description("One order by id"),
        )
        .build()?;

    let result = runtime.execute(SNIPPET, None)?;
    if let Some(error) = &result.error {
        return Err(format!("snippet failed: {}: {}", error.error_type, error.message).into());
    }
    print!("{}", result.stdout);
    println!("summary for the model: {}", result.value);
    println!("({:.1} ms)", result.duration_ms);

    // The full rows never went through the model; the host can still hand them to its own users.
    let value = result.value_json();
    let handle = value["rows"].as_str().ok_or("no handle")?;
    let rows: serde_json::Value = serde_json::from_str(&runtime.result_payload(handle)?)?;
    println!(
        "rows kept under {handle}: {}",
        rows.as_array().map_or(0, Vec::len)
    );
    assert_eq!(result.value_json()["count"], 8);
    Ok(())
}
