package io.watchgate.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * Checks an {@link Identifier}; the problem in Kubernetes' words travels as the violation's dynamic payload. With a
 * {@link ProblemBudget} as the validation's payload, a problem past the budget is counted there instead.
 */
public class IdentifierValidator implements ConstraintValidator<Identifier, String> {
    private IdentifierSyntax syntax;

    @Override
    public void initialize(Identifier annotation) {
        syntax = annotation.value();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        String problem = value == null ? null : syntax.problem(value);
        if (problem == null) {
            return true;
        }
        HibernateConstraintValidatorContext hibernate = context.unwrap(HibernateConstraintValidatorContext.class);
        ProblemBudget budget = hibernate.getConstraintValidatorPayload(ProblemBudget.class);
        if (budget != null && !budget.describe()) {
            return true; // counted, not described: enough are
        }
        hibernate.withDynamicPayload(problem);
        return false;
    }
}
