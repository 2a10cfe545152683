package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.durableagents.scenarios.grid.GridPosition;
import java.util.ArrayList;
import java.util.List;

/**
 * One agent of the negotiation scenario: a seller or a buyer. Sellers use {@code brand}, {@code
 * traits}, {@code products}, {@code sales} and {@code revenue}; buyers use {@code budget} and {@code
 * purchases}; the other fields are empty.
 *
 * @param id agent id ({@code seller-0}, {@code buyer-3})
 * @param role {@link NegotiationScenario#SELLER} or {@link NegotiationScenario#BUYER}
 * @param position its cell
 * @param brand a seller's brand ({@code Brand A})
 * @param traits a seller's personality ({@code persuasive}, {@code lazy}, ...)
 * @param products a seller's catalogue
 * @param sales how many products a seller has sold
 * @param revenue what a seller has earned
 * @param budget a buyer's money left
 * @param purchases what a buyer has bought, in order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NegotiationAgent(
    String id,
    String role,
    GridPosition position,
    String brand,
    List<String> traits,
    List<NegotiationProduct> products,
    int sales,
    int revenue,
    int budget,
    List<NegotiationPurchase> purchases) {

  public NegotiationAgent {
    traits = traits == null ? List.of() : List.copyOf(traits);
    products = products == null ? List.of() : List.copyOf(products);
    purchases = purchases == null ? List.of() : List.copyOf(purchases);
  }

  /** A seller at {@code position}. */
  public static NegotiationAgent seller(String id, GridPosition position, String brand,
      List<String> traits, List<NegotiationProduct> products) {
    return new NegotiationAgent(id, NegotiationScenario.SELLER, position, brand, traits, products,
        0, 0, 0, List.of());
  }

  /** A buyer at {@code position} with {@code budget}. */
  public static NegotiationAgent buyer(String id, GridPosition position, int budget) {
    return new NegotiationAgent(id, NegotiationScenario.BUYER, position, null, List.of(), List.of(),
        0, 0, budget, List.of());
  }

  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isSeller() {
    return NegotiationScenario.SELLER.equals(role);
  }

  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isBuyer() {
    return NegotiationScenario.BUYER.equals(role);
  }

  /** The seller's product of kind {@code product}, or null. */
  public NegotiationProduct product(String product) {
    for (NegotiationProduct p : products) {
      if (p.product().equals(product)) {
        return p;
      }
    }
    return null;
  }

  public NegotiationAgent withPosition(GridPosition p) {
    return new NegotiationAgent(id, role, p, brand, traits, products, sales, revenue, budget, purchases);
  }

  /** This seller after selling {@code product}. */
  public NegotiationAgent afterSale(NegotiationProduct product) {
    return new NegotiationAgent(id, role, position, brand, traits, products, sales + 1,
        revenue + product.price(), budget, purchases);
  }

  /** This buyer after buying {@code product} from {@code seller}. */
  public NegotiationAgent afterPurchase(String seller, NegotiationProduct product) {
    List<NegotiationPurchase> bought = new ArrayList<>(purchases);
    bought.add(new NegotiationPurchase(seller, product.product(), product.price()));
    return new NegotiationAgent(id, role, position, brand, traits, products, sales, revenue,
        budget - product.price(), bought);
  }
}
