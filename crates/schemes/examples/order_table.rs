//! Prints the catalogue with the orders verified by the order-condition checker.
//!
//! `cargo run -p schemes --example order_table`

use schemes::catalogue::{COMMUTATOR_FREE, TABLEAUX};
use schemes::{MAX_TREE_ORDER, OrderChecker};

fn main() {
    let checker = OrderChecker::new();
    println!(
        "Butcher tableaux (checked up to stated order + 1; tolerance {} ulps)",
        OrderChecker::DEFAULT_TOLERANCE_ULPS
    );
    println!(
        "{:<24} {:>6} {:>7} {:>9} {:>8} {:>9}  {:<9} {:<5} {:<11} ",
        "method",
        "stages",
        "stated",
        "verified",
        "embedded",
        "verified",
        "explicit",
        "FSAL",
        "reference"
    );
    for t in TABLEAUX {
        let r = t.verify_order();
        let (e_stated, e_verified) = match (t.embedded, t.verify_embedded_order()) {
            (Some(e), Some(r)) => (e.order.to_string(), r.order.to_string()),
            _ => ("-".into(), "-".into()),
        };
        println!(
            "{:<24} {:>6} {:>7} {:>9} {:>8} {:>9}  {:<9} {:<5} {:<11} ",
            t.name,
            t.stages(),
            t.order,
            r.order,
            e_stated,
            e_verified,
            t.is_explicit(),
            t.is_fsal(),
            t.reference
        );
        println!(
            "    {r}; worst satisfied |residual|/tolerance {:.1e}",
            r.worst_satisfied_ratio
        );
    }
    if let Some(t) = TABLEAUX.iter().find(|t| t.dense_output.is_some()) {
        let dense = t.dense_output.unwrap_or_else(|| unreachable!());
        let mut w = vec![0.0; t.stages()];
        print!(
            "{} dense output (stated order {}): verified order at θ =",
            t.name, dense.order
        );
        for theta in [0.1, 0.3, 0.5, 0.7, 0.9] {
            dense.weights_at(theta, &mut w);
            print!(
                " {theta}: {}",
                checker.check_continuous(*t, &w, theta, 5).order
            );
        }
        println!();
    }
    println!();
    println!("Commutator-free / Crouch–Grossman schemes: classical order of the abelian collapse");
    println!("(necessary conditions only; checked up to {MAX_TREE_ORDER})");
    println!(
        "{:<12} {:>6} {:>7} {:>14} {:>8} {:>14} {:>5} {:>9} {:<10}",
        "method",
        "stages",
        "stated",
        "abelian order",
        "embedded",
        "abelian order",
        "exps",
        "res/tol",
        "reference"
    );
    for s in COMMUTATOR_FREE {
        let t = s.abelian_tableau();
        let r = checker.check(&t, &t.b, MAX_TREE_ORDER);
        let (e_stated, e_verified) = match (s.embedded, &t.b_hat) {
            (Some(e), Some(w)) => (
                e.order.to_string(),
                checker.check(&t, w, MAX_TREE_ORDER).order.to_string(),
            ),
            _ => ("-".into(), "-".into()),
        };
        let at_stated = checker.check(&t, &t.b, s.order);
        println!(
            "{:<12} {:>6} {:>7} {:>14} {:>8} {:>14} {:>5} {:>9.1e} {:<10}",
            s.name,
            s.stages_count(),
            s.order,
            r.order,
            e_stated,
            e_verified,
            s.exponential_count(),
            at_stated.worst_satisfied_ratio,
            s.reference
        );
    }
    println!();
    for s in COMMUTATOR_FREE {
        println!("{s}");
    }
}
