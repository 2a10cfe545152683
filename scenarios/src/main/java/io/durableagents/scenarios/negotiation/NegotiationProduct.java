package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A product a seller offers, at a fixed price.
 *
 * @param product its kind: {@link NegotiationScenario#SHOES} or {@link NegotiationScenario#TRACK_SUIT}
 * @param price its price in whole currency units
 * @param quality its quality from 1 (poor) to 5 (excellent)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NegotiationProduct(String product, int price, int quality) {}
