package io.durableagents.scenarios.negotiation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * A product a buyer bought.
 *
 * @param seller the seller's id
 * @param product the product's kind
 * @param price what the buyer paid
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NegotiationPurchase(String seller, String product, int price) {}
