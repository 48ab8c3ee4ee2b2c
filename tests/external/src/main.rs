use toolplane::{Capability, HostError, Isolation, Limits, Toolplane};

#[derive(serde::Deserialize, toolplane::schemars::JsonSchema)]
#[schemars(crate = "toolplane::schemars")] // the derive names its crate: toolplane re-exports it
struct GetOrder { id: u32 }

fn main() {
    toolplane::worker_main_if_requested(); // lets this executable serve as its own sandbox worker
    for isolation in [Isolation::Process, Isolation::InProcess] { // Process: the default on Linux
        let runtime = Toolplane::builder()
            .isolation(isolation)
            .limits(Limits::default().with_timeout(std::time::Duration::from_secs(10)))
            .tool(Capability::typed("orders/get", |a: GetOrder| match a.id {
                0 => Err(HostError::lookup("no order 0")), // → LookupError in the snippet
                id => Ok(serde_json::json!({"id": id, "total": id * 10})),
            }))
            .build()
            .unwrap();
        let result = runtime.execute("return await orders_get(id=3)", None).unwrap();
        assert_eq!(result.value_json()["total"], 30);
        println!("{isolation:?}: {}", result.value_json());
    }
}
