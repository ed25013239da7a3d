package io.watchgate.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** Checks an {@link Identifier}; the problem in Kubernetes' words travels as the violation's dynamic payload. */
public class IdentifierValidator implements ConstraintValidator<Identifier, String> {
    private IdentifierSyntax syntax;

    @Override
    public void initialize(Identifier annotation) {
        syntax = annotation.value();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        String problem = value == null ? null : syntax.problem(value);
        if (problem != null) {
            context.unwrap(HibernateConstraintValidatorContext.class).withDynamicPayload(problem);
        }
        return problem == null;
    }
}
