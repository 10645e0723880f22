//! The comparison of [LLM09, §4] on its six examples with the paper's horizons: the variational
//! integrator against explicit RK4 on the ambient ODE and RK4 with reprojection (a baseline).
//! Prints mean |E − E₀|, mean unit-length error, their growth from the first to the last quarter
//! of the run and the fitted energy trend.
//!
//! ```text
//! cargo run --release -p models --example llm09_table
//! ```

#[path = "../tests/llm09/mod.rs"]
mod llm09;

fn main() {
    let rows = llm09::all_examples(llm09::Length::Full);
    println!("{}", llm09::format(&rows));
}
